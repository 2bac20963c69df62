"""One module per ``dicehall`` command."""
