"""Terminal pictures of games with rich, one module per game: ``render(view, seat)``."""
