"""The ``dicehall`` command line: a click group (:mod:`clients.cli.main`), one module per
command in :mod:`clients.cli.commands`, shared options in :mod:`clients.cli.options`."""
