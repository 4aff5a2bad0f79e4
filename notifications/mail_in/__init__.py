"""Mail coming in: moves by mail's side in this app (web.mail_moves is the door that plays
them). Who sent a mail and its reply (receive), the command language (commands), where a
player's own words end in a reply (reply_text), and the answer a reply gets and the turn
mail's example commands (answers)."""
