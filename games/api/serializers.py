"""Request and answer shapes, for parsing bodies and for the OpenAPI schema."""

from __future__ import annotations

from rest_framework import serializers

from engine import state as phases
from games.api.rules_schema import RulesField
from games.models import Game

ENTROPY_HELP = ("Your contribution to the game's seed: 1 to 64 printable ASCII characters "
                "(space to ~). The draws are keyed by HMAC-SHA256(server seed, every "
                "player's contribution in seat order joined by a line break); keep it to "
                "check the game at the end (GET /api/v1/games/{id}/record/ gives the server "
                "seed and the seed once it is over). Creating a game or offering a rematch, "
                "read GET /api/v1/account/next-seed/ first: the game takes the server seed "
                "whose hash it gave, committed before your entropy")


def entropy_field() -> serializers.RegexField:
    return serializers.RegexField(
        r"^[ -~]{1,64}$", required=False, allow_null=True, min_length=1, max_length=64,
        trim_whitespace=False, help_text=ENTROPY_HELP)


class GameIn(serializers.Serializer):
    name = serializers.CharField(max_length=100)
    players = serializers.IntegerField(min_value=2, max_value=6)
    rules = RulesField(
        required=False,
        help_text="Rule options by name (an unknown one is refused, 400 bad_rules); preset (czech, polish, encyclopedia, howto, "
                  "online) starts from a rulebook's options, other keys override them")
    deadline_seconds = serializers.IntegerField(required=False, min_value=10)
    clock = serializers.DictField(
        required=False,
        help_text="Rest the clock: {time_zone, quiet_from, quiet_until (hours), weekends}",
    )
    bots_allowed = serializers.BooleanField(
        required=False, help_text="Bot accounts may join by themselves (default false)")
    bots = serializers.ListField(
        child=serializers.ChoiceField(choices=["easy", "normal", "hard"]), required=False,
        help_text="Computer players for the seats after yours (players counts them)",
    )
    rated = serializers.BooleanField(
        required=False, allow_null=True,
        help_text="Whether the game moves ratings (default: yes, unless bots are seated)")
    entropy = entropy_field()
    private = serializers.BooleanField(
        required=False, default=False,
        help_text="Listed nowhere; joined only by invitation (by name, or its link's token)")
    map = serializers.CharField(
        required=False, help_text="The map to play (GET /api/v1/maps/); default classic")
    speed = serializers.BooleanField(
        required=False, default=False,
        help_text="A speed game: 3-minute turns (unless deadline_seconds says otherwise) and "
                  "a computer player takes the seat of a player who misses 2 turns "
                  "(rules dropped_seat bot, max_missed_turns 2)")


class JoinIn(serializers.Serializer):
    entropy = entropy_field()
    team = serializers.IntegerField(
        required=False, min_value=0,
        help_text="In a team game: the team to join, numbered from 0 as the view's `team`.")


class SeatsIn(serializers.Serializer):
    seats = serializers.DictField(
        child=serializers.IntegerField(min_value=0),
        help_text="Usernames of seated players and the seats (from 0) they move to; the "
                  "creator keeps seat 0.")
    token = serializers.CharField(required=False,
                                  help_text="A private game's invitation token")


class InviteIn(serializers.Serializer):
    username = serializers.CharField(help_text="The player invited (or whose invitation "
                                               "is withdrawn)")


class InvitationOut(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.IntegerField()
    username = serializers.CharField()
    invited_by = serializers.CharField()
    status = serializers.ChoiceField(choices=["pending", "accepted", "declined", "withdrawn"])
    created_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


class BotIn(serializers.Serializer):
    level = serializers.ChoiceField(choices=["easy", "normal", "hard"], required=False,
                                    help_text="A computer player of this level")
    account = serializers.CharField(required=False,
                                    help_text="Or a bot account you own, by its username")


class BotAccountIn(serializers.Serializer):
    owner = serializers.CharField(required=False, help_text=(
        "The account that runs the bot (default: the account itself), proved by owner_token"))
    owner_token = serializers.CharField(required=False,
                                        help_text="An API token of the owner's account")


class BotAccountOut(serializers.Serializer):
    username = serializers.CharField()
    bot = serializers.BooleanField()
    owner = serializers.CharField()
    since = serializers.DateTimeField()


# The phases a game view shows (null: not started, or over).
PHASES = [phases.CLAIM, phases.SETUP_PLACE, phases.CAPITAL, phases.REINFORCE, phases.ATTACK,
          phases.OCCUPY, phases.FORTIFY, phases.NEUTRAL_PLACE]
STATUSES = [status for status, _ in Game.STATUSES]


def status_field() -> serializers.ChoiceField:
    return serializers.ChoiceField(choices=STATUSES)


class GameListItem(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = status_field()
    players = serializers.IntegerField()
    seats_taken = serializers.IntegerField()
    current_seat = serializers.IntegerField(allow_null=True)
    deadline = serializers.DateTimeField(allow_null=True)
    private = serializers.BooleanField()
    bots_allowed = serializers.BooleanField()


class GameView(serializers.Serializer):
    """The game as the caller may see it: the board, the seats, the turn and what the
    caller may do now; other seats' cards, missions and capitals are left out until the
    game is finished, and under fog of war the territories out of the caller's sight.
    Every field is typed; a field may be added, none goes away."""
    id = serializers.IntegerField()
    name = serializers.CharField()
    map = serializers.CharField()
    status = status_field()
    version = serializers.IntegerField(
        help_text="The last event's seq: send it as a command's expected_version")
    rules = RulesField()
    phase = serializers.ChoiceField(
        choices=PHASES, allow_null=True,
        help_text="claim, setup_place and capital in setup; reinforce, attack, occupy, "
                  "fortify in a turn; neutral_place while the seat that is not playing the "
                  "turn places the neutral's reinforcement (two players with a neutral)")
    turn = serializers.IntegerField()
    turn_seat = serializers.IntegerField(
        required=False, allow_null=True,
        help_text="The seat whose turn it is (the player reinforcing, attacking, "
                  "fortifying); absent before the game starts")
    current_seat = serializers.IntegerField(
        allow_null=True, help_text="The seat that must act now: the turn's seat, except "
        "under neutral_place, where the other player places the neutral's armies in the "
        "turn's seat's turn (a two-player bot must answer then too); null while every seat "
        "acts at once (simultaneous placement, capital choice)")
    # The rest of the view's fields, typed, are games.api.view_schema's.


class CommandOut(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.DictField())
    game = GameView()


class EventsOut(serializers.Serializer):
    version = serializers.IntegerField()
    events = serializers.ListField(child=serializers.DictField())


class RecordOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    status = status_field()
    map = serializers.CharField()
    map_hash = serializers.CharField(allow_null=True, help_text="The map version played")
    rules = RulesField()
    seats = serializers.ListField(child=serializers.DictField())
    seed_hash = serializers.CharField(help_text="SHA-256 hex of the server seed's bytes")
    server_seed = serializers.CharField(
        allow_null=True, help_text="The seed committed at creation; once the game is over")
    contributions = serializers.ListField(
        child=serializers.CharField(), allow_null=True,
        help_text="The players' entropy in seat order, once the game has started")
    seed = serializers.CharField(
        allow_null=True, help_text="The draws' key, HMAC-SHA256(server_seed, contributions "
        "joined by a line break), or server_seed if there are none; once the game is over")
    events = serializers.ListField(child=serializers.DictField())


class MapSummary(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    territories = serializers.IntegerField()
    continents = serializers.IntegerField()
    min_players = serializers.IntegerField()
    max_players = serializers.IntegerField()
    hash = serializers.CharField()
    missions = serializers.BooleanField()


class MapOut(serializers.Serializer):
    id = serializers.CharField()
    name = serializers.CharField()
    territories = serializers.ListField(child=serializers.DictField())
    continents = serializers.ListField(child=serializers.DictField())
    borders = serializers.ListField(child=serializers.ListField(child=serializers.CharField()))
