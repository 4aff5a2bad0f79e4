"""Who may know of a game at all: a private game's seats, its creator, the players invited
by name, whoever holds its invitation link, and moderators; to anyone else a private game
answers exactly as a game that does not exist (lobby.invitations makes the invitations)."""

from __future__ import annotations

import hmac

from django.contrib.auth import get_user_model
from django.db.models import Q

from games.models import Game, Invitation, Seat
from games.store.seats import Seats

# Invitations that let their player see the game (and join it while it is open): one
# accepted and then left still does, as a seat once taken.
SEEING = (Invitation.PENDING, Invitation.ACCEPTED)
NOT_FOUND = "no such game, or its invitation link is no longer valid"


def link_token(game: Game) -> str | None:
    """The token of a private game's invitation link: its id and its secret. Only for
    its creator's eyes (and those the creator hands it to)."""
    if not game.private or not game.invite_token:
        return None
    return f"{game.pk}-{game.invite_token}"


def token_fits(game: Game, token) -> bool:
    expected = link_token(game)
    return (expected is not None and isinstance(token, str)
            and hmac.compare_digest(token.encode(), expected.encode()))


def game_for_token(token) -> Game | None:
    """The private game whose invitation link carries `token`, or None (a bad, mistyped
    or renewed token alike)."""
    if not isinstance(token, str) or not 3 <= len(token) <= 100:
        return None
    game_id, _, secret = token.partition("-")
    if not secret or not game_id.isascii() or not game_id.isdigit() or len(game_id) > 18:
        return None
    game = Game.objects.filter(pk=int(game_id), private=True).first()
    return game if game is not None and token_fits(game, token) else None


MODERATE = "games.moderate_game"


def is_moderator(user) -> bool:
    return bool(user and user.is_authenticated and user.has_perm(MODERATE))


def invited(user):
    """The invitations that reached `user` (a withheld one never did)."""
    return Invitation.objects.filter(user=user, delivered=True)


def may_see(game: Game, user, token=None, seats: Seats | None = None) -> bool:
    """Whether `user` (or whoever holds `token`) may know of the game at all. `seats`:
    the game's, if the caller read them (else whether the user sits in a private game
    is read here)."""
    if not game.private or token_fits(game, token):
        return True
    if user is None or not user.is_authenticated:
        return False
    if game.creator_id == user.pk:
        return True
    seated = (seats.seat_of(user) is not None if seats is not None
              else Seat.objects.filter(game=game, user=user).exists())
    if seated or is_moderator(user):
        return True
    return invited(user).filter(game=game, status__in=SEEING).exists()


def seeing(pairs) -> set[tuple[int, int]]:
    """Of (game id, user id) pairs, those whose user may know of the game now, as may_see
    answers without a link: at most four queries for them all."""
    pairs = set(pairs)
    if not pairs:
        return set()
    games = {pk: (private, creator) for pk, private, creator in Game.objects.filter(
        pk__in={g for g, _ in pairs}).values_list("pk", "private", "creator_id")}
    hidden = [pk for pk, (private, _) in games.items() if private]
    users = {u for _, u in pairs}
    let_in = {*Seat.objects.filter(game_id__in=hidden, user_id__in=users)
              .values_list("game_id", "user_id"),
              *Invitation.objects.filter(game_id__in=hidden, user_id__in=users,
                                         status__in=SEEING).values_list("game_id", "user_id")
              } if hidden else set()
    found = {(g, u) for g, u in pairs
             if g in games and (not games[g][0] or games[g][1] == u or (g, u) in let_in)}
    rest = {(g, u) for g, u in pairs - found if g in games}
    if rest:  # moderators may look (is_moderator: the permission, from the model backend)
        moderators = set(get_user_model().objects.with_perm(
            MODERATE, backend="django.contrib.auth.backends.ModelBackend")
            .filter(pk__in={u for _, u in rest}).values_list("pk", flat=True))
        found |= {(g, u) for g, u in rest if u in moderators}
    return found


def visible(user, through: str = "") -> Q:
    """Games `user` may know of, as a filter: public ones, those they sit in and those
    they were invited to. `through` ("game__") filters rows of another table by their game,
    in a join rather than over every game."""
    return visible_by(user, f"{through}private", f"{through}pk")


def visible_by(user, private: str, game: str) -> Q:
    """visible() for rows that keep their game's privacy in a column of their own: `private`
    names it, `game` the game's id (ratings' results: "private", "game_id")."""
    public = Q(**{private: False})
    if user is None or not user.is_authenticated:
        return public
    return (public | Q(**{f"{game}__in": Seat.objects.filter(user=user).values("game_id")})
            | Q(**{f"{game}__in": invited(user).filter(status__in=SEEING)
                   .values("game_id")}))


# The site's pages keep the invitation links a visitor followed in their session
# ({game id: token}), so the game's page and its parts open for them as for the invited.
SESSION_KEY = "invitation_tokens"


def session_token(session, game_id: int) -> str | None:
    tokens = session.get(SESSION_KEY) if session is not None else None
    return tokens.get(str(game_id)) if isinstance(tokens, dict) else None


def page_may_see(request, game: Game, seats: Seats | None = None) -> bool:
    """may_see for a page's request: its user, or the link its session holds."""
    return may_see(game, request.user,
                   session_token(getattr(request, "session", None), game.pk), seats)
