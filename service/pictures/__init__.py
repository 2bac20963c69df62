"""SVG pictures of games, one module per game: ``render_svg(view, player) -> str``."""
