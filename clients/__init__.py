"""dicehall's clients: the Python SDK (:mod:`clients.sdk`) and the ``dicehall`` CLI.

Clients speak only the HTTP API (``docs/API.md``, ``openapi.yaml``); they import nothing from
``engine`` or ``service`` except the two documented exceptions in the CLI (``dicehall up``
starts the service, ``dicehall verify`` re-plays a finished game with the engine).
"""
