"""The web pages, by what they own: the lobby and home (lobby), the game page and its forms
(game), the account pages (account); refusals reads a refused command in words."""
