"""Making games: creating, joining and seating open games, invitations, challenges, rematches,
the lobby's lists and the seeds drawn ahead for creators. Above the game core: it starts a
game through games.service.submit like any door, and the core knows nothing of it."""
