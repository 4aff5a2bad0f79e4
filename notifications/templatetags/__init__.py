"""Template tags of the notifications app."""
