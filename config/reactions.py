"""The wiring, declared once, in order, as imported functions: what follows from a change
to a game (the whole list of consequences of a move), who is told at all, what other apps
add to a mail, the seat flags read with a game, the standing orders, who is on vacation, who has a
stake in a game, what must agree before an account becomes a bot, the moderators' queue and
every framework signal's receiver. config.apps hands this module to lib.reactions once the
apps are ready; games/ and the other lower layers read it there, by name, and import none
of what it lists. A wrong name fails here, at import, not when its reaction first fires."""

from anymail.signals import inbound
from celery import signals as celery_signals
from django.core.signals import got_request_exception
from django.db.backends.signals import connection_created
from django.utils.translation import gettext_lazy as _

from accounts.bots import bot_account_flag_sql
from conversations import blocking
from conversations import reports as conversation_reports
from games import reactions as game_reactions
from games import standing_orders
from lib.sql import load_times_in_c
from live import publish
from moderation import mail as moderation_mail
from moderation import reactions as moderation_reactions
from notifications import confirmation, outbox, vacations
from notifications import reactions as mail_reactions
from ops import metrics, outage, request_id
from ratings import reactions as rating_reactions
from tournaments import moderators as tournament_moderators
from tournaments import reactions as tournament_reactions
from tournaments import services as tournament_services
from web import reactions as page_reactions
from web.mail_moves import on_anymail_inbound

REACTIONS = {
    # games.service.commit hands each the Committed value (the game, the events, the state
    # before and after, the actor). Called before the append: each returns a write for the
    # append's own transaction (or None). The outbox's rows may go into the append's single
    # statement (games.store.append).
    "in_transaction": [
        mail_reactions.outbox_rows,  # mail the events cause; sent after commit
        moderation_reactions.hide_chat_line,  # chat_hidden: its line is hidden
        game_reactions.hand_over_seat,  # player_replaced: the seat's new holder
    ],
    # Called once the append succeeded: each only schedules work for when the transaction
    # commits (lib.publish.on_commit), never waits for it.
    "after_commit": [
        game_reactions.queue_bots,  # a computer player owes the next decision
        rating_reactions.queue_recording,  # a finished game's ratings
        rating_reactions.queue_analysis,  # a finished game's win chance, turn by turn
        page_reactions.queue_finished_page,  # a finished game's page drawn ahead
        tournament_reactions.queue_advance,  # a finished game's tournament round
        publish.game_moved,  # open streams hear of it (Redis pub/sub)
    ],
    # A rematch of a finished game offered or declined (lobby.rematch.RematchNews), in the
    # offer's transaction; its start is a game's start like any other, seen above.
    "rematch": [
        mail_reactions.rematch_rows,  # the other players hear of it
    ],
    # An invitation to a game was made, withdrawn, declined or accepted
    # (lobby.invitations): called in its transaction with (what, invitation).
    "invitations": [
        mail_reactions.invitation_news,  # the invitee's notification and mail
        publish.invitation_news,  # the invitee's open stream hears of it
    ],
    # An address to confirm (accounts.email: a sign-up, a profile's new address, a link asked
    # for again), called with (user, email) in the request's transaction.
    "address_to_confirm": [
        confirmation.mail_confirmation_link,  # the link, by mail
    ],
    # A chat line was posted (moderation.chat), in its transaction, with (game, line, the
    # user ids it mentions among those who read it).
    "chat_line": [
        mail_reactions.mention_entries,  # each mention in the player's list
        publish.chat_line,  # the game's streams and the players'
    ],
    # A private message was sent (conversations.messaging), in its transaction, with
    # (message, whether it is the first its recipient has not read).
    "message_sent": [
        mail_reactions.message_mail,  # the first unread one, by mail
        publish.message_sent,  # the recipient's unread count
    ],
    # A tournament's news for its participants (tournaments.services.tell), in its
    # transaction, with (tournament, user ids, what, the game or None).
    "tournament_news": [
        mail_reactions.tournament_rows,  # one mail each
    ],
    # Finished games' ratings were recorded (ratings.tasks.record_results), after their
    # commit, with (game ids).
    "results_recorded": [
        mail_reactions.release_end_mails,  # the end mails held for them
    ],
    # A player changed their standing choices (accounts.api), called with (user).
    "preferences_changed": [
        standing_orders.place_waiting,  # "borders": the halves already waiting
    ],
}

# Who is told at all: each kind's guards run before its reactions and may withhold the
# news from some (lib.reactions.announce), whatever order the reactions are in.
NEWS_GUARDS = {
    # Not told to one who blocks the offering (or declining) player.
    "rematch": [blocking.withhold_blocked_rematch],
    # An invitation from a player its invitee blocks is made and withheld, never delivered.
    "invitations": [blocking.withhold_blocked_invitation],
}

# What other apps add to a mail's context as it is rendered (notifications.parts): each a
# function of (notifications, {(game id, user id): seat}) giving {mail id: {name: value}}.
MAIL_PARTS = [
    moderation_mail.chat_for_mails,  # table talk since the reader's previous turn mail
]

# Facts about each seat's user that a reaction needs on nearly every command, read with
# the game's seats in the same query (games.store.row.load_game): name -> a function of the
# SQL naming the seat's user id, giving an SQL boolean.
SEAT_FLAGS = {
    # Whether a player takes a daily digest instead of turn mails (the outbox asks).
    "digest": outbox.digest_flag_sql,
    # Whether a player had the two-player neutral's half placed for them (a standing order).
    "neutral_borders": standing_orders.borders_flag_sql,
    # Whether a seat is a bot account's (its owner is shown with it: games.seat_views).
    "bot_account": bot_account_flag_sql,
}

# Standing orders: decisions a player chose, once for all games, to have made for them the
# moment a commit leaves one to them. games.service.commit asks each (a function of the
# Committed so far giving (actor, command) or None) of the state after the command's events,
# before the append; the engine decides what it gives on that state, as it would the
# player's own command, and its events go into the same append (each with the order-giver's
# user id): one transaction, one Committed for the reactions above, one set of mail rows.
# An order the engine refuses is logged and left to the player.
STANDING_ORDERS = [
    standing_orders.neutral_placement,  # the neutral's half, on the mover's borders
]

# Who is on vacation when their deadline passes: a function of (user ids, now) giving
# {user id: when they are back}; the deadline sweep (games.deadlines) stretches their clock.
ON_VACATION = vacations.on_vacation

# Who has a stake in a game besides its players, so may not moderate it (games.moderation
# .stakes): each a function of a user giving a queryset of such games' ids.
MODERATOR_STAKES = [
    tournament_moderators.games_entered,  # a tournament's games, for its entrants
]

# What must agree before an account becomes a bot account (lobby.bot_accounts): each a
# function of the user giving a refusal's text or None.
BOT_ACCOUNT_CHECKS = [
    tournament_services.entered_as_person,  # a tournament entry made as a person
]

# What the other apps add to the moderators' queue (moderation.sections), in order: a
# heading and a function of the moderator giving rows {url, name, note}.
MODERATION_SECTIONS = [
    (_("Reported private messages"), conversation_reports.queue_rows),
    (_("Held-up tournaments"), tournament_moderators.queue_rows),
]

# Every receiver of a framework's signal, connected once by config.apps (and nowhere else):
# (the signal, its receiver).
SIGNALS = [
    # Mail that players send in, from anymail's inbound webhook.
    (inbound, on_anymail_inbound),
    # A request that failed for want of the database (ops.outage: /readyz says so).
    (got_request_exception, outage.remember_failure),
    # Request ids carried into tasks, and the tasks' metrics (ops: the apps that define the
    # tasks know nothing of ops).
    (celery_signals.before_task_publish, request_id.add_to_task),
    (celery_signals.task_prerun, request_id.enter_task),
    (celery_signals.task_postrun, request_id.leave_task),
    (celery_signals.task_prerun, metrics.task_started),
    (celery_signals.task_postrun, metrics.task_finished),
    (celery_signals.worker_process_shutdown, metrics.process_exited),
    # SQLite's times read in C (lib.sql), on every new connection.
    (connection_created, load_times_in_c),
]
