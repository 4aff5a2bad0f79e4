"""Live streams of a game's events and a user's notices (Server-Sent Events over ASGI)."""
