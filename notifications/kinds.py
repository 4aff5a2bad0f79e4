"""Every notification kind, declared once: who is told, the preference that silences it,
whether it is mailed, pushed and listed on the site, what its mail shows and adds to its
context (notifications.kind_parts), and where its words are (words/notices.py) and its
mail's body (templates/mail/kinds/<name>.txt and .html). The mail (what is sent, to whom
its preferences allow, with what), the push and the site's list read these; the outbox and
the other writers name a kind by Notification's constant. The model stores the kind's name
with no choices, so a new kind needs no migration."""

from __future__ import annotations

from dataclasses import dataclass

from notifications import kind_parts as part


@dataclass(frozen=True)
class Kind:
    name: str
    # Who is told, and of what (the outbox, the ending or the reaction that writes it).
    told: str
    # The preference (accounts.Preferences) that silences its mail and push: `turn_mail`,
    # `game_mail`, `message_mail`; None: always sent to a confirmed address.
    preference: str | None = "game_mail"
    mailed: bool = True
    pushed: bool = False
    listed: bool = False
    # Its mail: the board shown; the answer by mail offered; the mail commands and
    # examples after the button; the game as of its event (else as it stands now).
    shows_board: bool = True
    answered_by_mail: bool = False
    commands_after: bool = False
    as_of_event: bool = True
    # What it adds to its mail's context before the game's (links) and with it (parts).
    links: tuple = ()
    parts: tuple = ()
    # Where its entry in the site's list leads on the game's page.
    anchor: str = ""


KINDS = {kind.name: kind for kind in (
    Kind("turn", "the player (or players) whose decision the game waits for",
         preference="turn_mail", pushed=True, listed=True, answered_by_mail=True,
         commands_after=True, parts=(part.since_and_examples,)),
    Kind("reminder", "a player whose deadline is near (the sweep)", preference="turn_mail",
         pushed=True, answered_by_mail=True, as_of_event=False),
    Kind("started", "every player, as the game starts", pushed=True, listed=True,
         parts=(part.neutral_offer,)),
    Kind("eliminated", "the player eliminated", pushed=True, listed=True,
         parts=(part.who_and_by,)),
    Kind("finished", "every player, once the game is over (held for the ratings)",
         pushed=True, listed=True, shows_board=False, parts=(part.the_end,)),
    Kind("timed_out", "every other player, when a deadline passed",
         parts=(part.who_and_by,)),
    Kind("dropped", "every other player, when a player is dropped",
         parts=(part.who_and_by,)),
    Kind("reply", "the player who mailed moves in", preference=None, answered_by_mail=True,
         parts=(part.since_and_examples, part.what_was_done)),
    Kind("digest", "a player who takes one mail a day for their waiting games",
         preference=None),
    Kind("replaced", "the player a moderator hands a seat to", pushed=True, listed=True),
    Kind("moderated", "the players of a game a moderator acted in",
         parts=(part.moderator_sentence,)),
    Kind("confirm_email", "the address to confirm (mailed with its own template)",
         preference=None),
    Kind("tournament", "a tournament's participants, of its news", listed=True,
         links=(part.tournament_link,)),
    Kind("mention", "a player mentioned in a chat line they read (the site only)",
         mailed=False, listed=True, anchor="#chat"),
    Kind("rematch", "the other players, of a rematch offered or declined", listed=True,
         shows_board=False, anchor="#result"),
    Kind("message", "the recipient of a private message, for the first unread one",
         preference="message_mail", pushed=True, links=(part.conversation_link,)),
    Kind("invitation", "the player invited to a game", pushed=True, listed=True),
)}
LISTED = tuple(name for name, kind in KINDS.items() if kind.listed)
PUSHED = frozenset(name for name, kind in KINDS.items() if kind.pushed)
