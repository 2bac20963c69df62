"""``python -m clients.cli``: the dicehall CLI without the console script."""

from clients.cli.main import cli

cli(prog_name="dicehall")
