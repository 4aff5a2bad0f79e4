"""The web pages: lobby, game page with its SVG board and play forms, accounts."""
