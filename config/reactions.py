"""What follows from a change to a game, declared once, in order: the whole list of
consequences of a move. games.service.commit hands each reaction the Committed value (the
game, the events, the state before and after, the actor); games/ imports none of them, and
a new consumer adds a line here instead of editing the core. Read through settings
(CONQUEST_REACTIONS), so a test or a deployment may change it."""

CONQUEST_REACTIONS = {
    # Called before the append: each returns a write for the append's own transaction (or
    # None). The outbox's rows may go into the append's single statement (games.append).
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
    # A rematch of a finished game offered or declined (lobby.rematch.RematchNews), in the
    # offer's transaction; its start is a game's start like any other, seen above.
    "rematch": [
        "notifications.reactions.rematch_rows",  # the other players hear of it
    ],
    # An invitation to a game was made, withdrawn, declined or accepted
    # (lobby.invitations): called in its transaction with (what, invitation).
    "invitations": [
        "notifications.reactions.invitation_news",  # the invitee's notification and mail
        "live.publish.invitation_news",  # the invitee's open stream hears of it
    ],
    # An address to confirm (accounts.email: a sign-up, a profile's new address, a link asked
    # for again), called with (user, email) in the request's transaction.
    "address_to_confirm": [
        "notifications.confirmation.mail_confirmation_link",  # the link, by mail
    ],
    # A chat line was posted (moderation.chat), in its transaction, with (game, line, the
    # user ids it mentions among those who read it).
    "chat_line": [
        "notifications.reactions.mention_entries",  # each mention in the player's list
        "live.publish.chat_line",  # the game's streams and the players'
    ],
    # A private message was sent (conversations.messaging), in its transaction, with
    # (message, whether it is the first its recipient has not read).
    "message_sent": [
        "notifications.reactions.message_mail",  # the first unread one, by mail
        "live.publish.message_sent",  # the recipient's unread count
    ],
    # A tournament's news for its participants (tournaments.services.tell), in its
    # transaction, with (tournament, user ids, what, the game or None).
    "tournament_news": [
        "notifications.reactions.tournament_rows",  # one mail each
    ],
    # Finished games' ratings were recorded (ratings.tasks.record_results), after their
    # commit, with (game ids).
    "results_recorded": [
        "notifications.reactions.release_end_mails",  # the end mails held for them
    ],
    # A player changed their standing choices (accounts.api), called with (user).
    "preferences_changed": [
        "games.standing_orders.place_waiting",  # "borders": the halves already waiting
    ],
}

# Who is told at all: each kind's guards run before its reactions and may withhold the
# news from some (lib.reactions.announce), whatever order the reactions are in.
CONQUEST_NEWS_GUARDS = {
    # Not told to one who blocks the offering (or declining) player.
    "rematch": ["conversations.blocking.withhold_blocked_rematch"],
    # An invitation from a player its invitee blocks is made and withheld, never delivered.
    "invitations": ["conversations.blocking.withhold_blocked_invitation"],
}

# What other apps add to a mail's context as it is rendered (notifications.mail): each a
# function of (notifications, {(game id, user id): seat}) giving {mail id: {name: value}}.
CONQUEST_MAIL_PARTS = [
    "moderation.mail.chat_for_mails",  # table talk since the reader's previous turn mail
]

# Facts about each seat's user that a reaction needs on nearly every command, read with
# the game's seats in the same query (games.rows.load_game): name -> a function of the
# SQL naming the seat's user id, giving an SQL boolean. The outbox asks whether a player
# takes a daily digest instead of turn mails.
CONQUEST_SEAT_FLAGS = {
    "digest": "notifications.outbox.digest_flag_sql",
    # Whether a player had the two-player neutral's half placed for them (a standing order).
    "neutral_borders": "games.standing_orders.borders_flag_sql",
    # Whether a seat is a bot account's (its owner is shown with it: games.seat_views).
    "bot_account": "accounts.bots.bot_account_flag_sql",
}

# Standing orders: decisions a player chose, once for all games, to have made for them the
# moment a commit leaves one to them. games.service.commit asks each (a function of the
# Committed so far giving (actor, command) or None) of the state after the command's events,
# before the append; the engine decides what it gives on that state, as it would the
# player's own command, and its events go into the same append (each with the order-giver's
# user id): one transaction, one Committed for the reactions above, one set of mail rows.
# An order the engine refuses is logged and left to the player.
CONQUEST_STANDING_ORDERS = [
    "games.standing_orders.neutral_placement",  # the neutral's half, on the mover's borders
]

# Who is away (on vacation) when their deadline passes: a function of (user ids, now) giving
# {user id: when they are back}; the deadline sweep (games.deadlines) stretches their clock.
CONQUEST_AWAY = "notifications.vacations.away_until"

# Every receiver of a framework's signal, connected once by config.apps (and nowhere else):
# (the signal's dotted path, the receiver's dotted path).
CONQUEST_SIGNALS = [
    # Mail that players send in, from anymail's inbound webhook.
    ("anymail.signals.inbound", "web.mail_moves.on_anymail_inbound"),
    # A request that failed for want of the database (ops.outage: /readyz says so).
    ("django.core.signals.got_request_exception", "ops.outage.remember_failure"),
    # Request ids carried into tasks, and the tasks' metrics (ops: the apps that define the
    # tasks know nothing of ops).
    ("celery.signals.before_task_publish", "ops.request_id.add_to_task"),
    ("celery.signals.task_prerun", "ops.request_id.enter_task"),
    ("celery.signals.task_postrun", "ops.request_id.leave_task"),
    ("celery.signals.task_prerun", "ops.metrics.task_started"),
    ("celery.signals.task_postrun", "ops.metrics.task_finished"),
    ("celery.signals.worker_process_shutdown", "ops.metrics.process_exited"),
    # SQLite's times read in C (lib.sql), on every new connection.
    ("django.db.backends.signals.connection_created", "lib.sql.load_times_in_c"),
]
