"""The one rich console every command prints through (and its twin on stderr for errors)."""

from __future__ import annotations

from rich.console import Console

console = Console(highlight=False)
"""Normal output (stdout)."""

err_console = Console(stderr=True, highlight=False)
"""Error messages (stderr)."""
