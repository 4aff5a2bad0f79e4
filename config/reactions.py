"""What follows from a change to a game, declared once, in order: the whole list of
consequences of a move. games.write.commit hands each reaction the Committed value (the
game, the events, the state before and after, the actor); games/ imports none of them, and
a new consumer adds a line here instead of editing the core. Read through settings
(CONQUEST_REACTIONS), so a test or a deployment may change it."""

CONQUEST_REACTIONS = {
    # Called before the append: each returns a write for the append's own transaction (or
    # None). The outbox's rows may go into the append's single statement (games.store).
    "in_transaction": [
        "notifications.reactions.outbox_rows",  # mail the events cause; sent after commit
        "moderation.reactions.hide_chat_line",  # chat_hidden: its line is hidden
        "games.reactions.hand_over_seat",  # player_replaced: the seat's new holder
    ],
    # Called once the append succeeded: each only schedules work for when the transaction
    # commits (lib.publish.on_commit), never waits for it.
    "after_commit": [
        "games.reactions.queue_bots",  # a computer player owes the next decision
        "ratings.reactions.queue_recording",  # a finished game's ratings
        "ratings.reactions.queue_analysis",  # a finished game's win chance, turn by turn
        "tournaments.reactions.queue_advance",  # a finished game's tournament round
        "live.publish.game_moved",  # open streams hear of it (Redis pub/sub)
    ],
    # A rematch of a finished game offered or declined (games.rematch.RematchNews), in the
    # offer's transaction; its start is a game's start like any other, seen above.
    "rematch": [
        # Not told to one who blocks the offering (or declining) player: the rows skip them.
        "conversations.blocking.withhold_blocked_rematch",
        "notifications.reactions.rematch_rows",  # the other players hear of it
    ],
    # An invitation to a game was made, withdrawn, declined or accepted
    # (games.invitations): called in its transaction with (what, invitation).
    "invitations": [
        # Withheld from one who blocks the inviter: the reactions below skip it.
        "conversations.blocking.withhold_blocked_invitation",
        "notifications.reactions.invitation_news",  # the invitee's notification and mail
        "live.publish.invitation_news",  # the invitee's open stream hears of it
    ],
}

# Facts about each seat's user that a reaction needs on nearly every command, read with
# the game's seats in the same query (games.store.fetch_game): name -> a function of the
# SQL naming the seat's user id, giving an SQL boolean. The outbox asks whether a player
# takes a daily digest instead of turn mails.
CONQUEST_SEAT_FLAGS = {
    "digest": "notifications.outbox.digest_flag_sql",
    # Whether a player had the two-player neutral's half placed for them (a standing order).
    "neutral_borders": "accounts.standing.borders_flag_sql",
    # Whether a seat is a bot account's (its owner is shown with it: games.reading).
    "bot_account": "accounts.bots.bot_account_flag_sql",
}

# Standing orders: decisions a player chose, once for all games, to have made for them the
# moment a commit leaves one to them. games.write.submit asks each (a function of the
# Committed giving (actor, command) or None) after every commit and submits what it gives
# through itself, so the order is an ordinary command with the ordinary checks.
CONQUEST_STANDING_ORDERS = [
    "accounts.standing.neutral_placement",  # the neutral's half, on the mover's borders
]
