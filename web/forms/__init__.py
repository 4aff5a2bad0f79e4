"""The pages' forms, by what they own: a game's settings (game_settings), the lobby's create
form (lobby), the account forms (account)."""
