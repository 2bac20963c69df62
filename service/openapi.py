"""Writing ``openapi.yaml`` from the app: ``python -m service.openapi [PATH]``.

The document is generated from the same marshmallow schemas that validate requests, and
committed; ``tests/service/test_openapi.py`` fails when the committed file drifts.
"""

from __future__ import annotations

import sys
from pathlib import Path

import yaml

from service.app import create_app

DEFAULT_PATH = Path(__file__).resolve().parents[1] / "openapi.yaml"


def render() -> str:
    """The OpenAPI document of the app as YAML text."""
    app = create_app()
    spec = app.extensions["dicehall.api"].spec.to_dict()
    return yaml.safe_dump(spec, sort_keys=False, allow_unicode=True, width=100)


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    path = Path(args[0]) if args else DEFAULT_PATH
    path.write_text(render())
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
