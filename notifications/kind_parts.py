"""What a kind's mail adds to its context as it is rendered (notifications.kinds lists each
kind's parts, notifications.mail calls them in order): each a function of (notification,
context so far, reader, preferences, state) giving the names it adds. A part before the
game's (`links`) runs for mails without a game too."""

from __future__ import annotations

from urllib.parse import quote

from accounts.models import Preferences, neutral_placed_for
from games import seat_views
from games.boards import board_of_view
from games.standing_orders import neutral_question_open
from notifications import ending, links
from notifications.mail_in import answers
from words import narrator


def tournament_link(notification, context, reader, preferences, state) -> dict:
    return {"tournament_url": links.site(
        f"/tournaments/{notification.payload.get('tournament_id')}/")}


def conversation_link(notification, context, reader, preferences, state) -> dict:
    # The conversation's page; the mail names the sender, never the text.
    return {"conversation_url": links.site(
        f"/messages/{quote(notification.payload.get('sender', ''))}/")}


def since_and_examples(notification, context, reader, preferences, state) -> dict:
    """What happened to the reader since their last turn, and the mail commands they might
    answer with from where they stand."""
    if state is None:
        return {}
    game, seat, names, view = (context[k] for k in ("game", "seat", "names", "view"))
    added = {"since": reader.since_last_turn(game, seat, names, notification.event_seq,
                                             state.board)}
    added["examples"] = answers.examples(view) if not game.is_over else []
    added["attack_chance"] = answers.attack_chance(view) if added["examples"] else None
    if view.get("phase") == "neutral_place" and view.get("current_seat") == seat:
        # The armies owed are the neutral's, half of the player moving's reinforcement.
        added["neutral_for"] = narrator.seat_name(view.get("turn_seat"), names)
        if neutral_question_open(preferences):  # asked until answered, here or on the page
            added["neutral_answers"] = _neutral_answers(notification.user_id)
    return added


def _neutral_answers(user_id: int) -> dict:
    """The one-click answers to "who places the neutral's armies?", by choice."""
    return {choice: links.neutral_answer_url(user_id, choice)
            for choice in (Preferences.ASK_ME, Preferences.BORDERS)}


def neutral_offer(notification, context, reader, preferences, state) -> dict:
    """A two-player game with the neutral: who places the neutral's armies in the reader's
    opponent's turns, in one sentence, with the way to the other choice (automatically on
    the player moving's borders is the default of a player who never chose)."""
    if state is None or not state.has_neutral:
        return {}
    placed = notification.user_id in neutral_placed_for([notification.user_id])
    return {"neutral_offer": "borders" if placed else "ask",
            "neutral_answers": None if placed or not neutral_question_open(preferences)
            else _neutral_answers(notification.user_id)}


def what_was_done(notification, context, reader, preferences, state) -> dict:
    """A mailed move's answer: each command done and what it did."""
    if state is None:
        return {}
    return {"answers": answers.answer(context["game"], context["seat"], notification.payload,
                                      context["view"], context["names"])}


def the_end(notification, context, reader, preferences, state) -> dict:
    game, seat, names, view = (context[k] for k in ("game", "seat", "names", "view"))
    added = {"seed": game.seed if game.is_over else None,
             # With the players' entropy the dice's key is derived from the seed
             # (docs/players/fair-dice.md).
             "dice_seed": game.dice_seed if game.is_over and game.contributions else None,
             "winner": narrator.seat_name(view.get("winner"), names)}
    if view.get("winning_team") is not None:  # a team game: every member won
        added["winner"] = narrator.team_words(view["winning_team"], view["winners"], names)
    added.update(ending.end_context(notification, game, seat, names))
    return added


def who_and_by(notification, context, reader, preferences, state) -> dict:
    names = context["names"]
    return {"who": narrator.seat_name(notification.payload.get("seat"), names),
            "by": narrator.seat_name(notification.payload.get("by"), names)}


def moderator_sentence(notification, context, reader, preferences, state) -> dict:
    """A moderator's event in the narrator's words, as the game's log tells it to this
    reader: the outbox keys each row by the event that caused it (kind:game:seq)."""
    tail = notification.key.rsplit(":", 1)[-1]
    cause = int(tail) if tail.isdigit() else notification.event_seq
    told = seat_views.event_dicts(context["game"], context["seat"], after=cause - 1,
                                  upto=cause)
    board = state.board if state is not None else board_of_view(context["view"])
    return {"told": narrator.describe(told[0], context["names"], board=board)
            if told else ""}
