"""Rule options of docs/players/rules.md with their defaults, and their validation."""

from __future__ import annotations

from dataclasses import dataclass, field, fields

from .errors import BadRules
from .maps import Board, classic

DEFAULT_FIXED_VALUES = {"infantry": 4, "cavalry": 6, "artillery": 8, "mixed": 10}

CHOICES = {
    "setup": ("deal", "claim", "random"),
    "initial_placement": ("turns", "simultaneous"),
    "card_values": ("escalating", "fixed"),
    "card_territory_bonus": ("once", "each"),
    "occupy_minimum": ("dice", "one"),
    "fortify": ("adjacent", "connected", "spread"),
    "objective": ("domination", "missions", "capitals"),
    "capitals_to_win": ("table", "all"),
    "neutral_reinforcement": ("opponent", "auto", "borders"),
    "dropped_seat": ("neutral", "bot"),
    "elimination_trade_when": ("immediately", "next_reinforce"),
    "forced_trade": ("until_below_5", "one_set"),
    "traded_cards": ("discard", "bottom"),
    "card_draw": ("end_of_turn", "before_fortify"),
    "minimum_reinforcement": ("territories", "total"),
    "neutral_dice": ("max", "opponent"),
    "play_order": ("setup", "redraw"),
}
SWITCHES = ("capital_collapse", "neutral", "fog", "continent_bonus_after_round", "cards",
            "capital_card_out")

# One preset per rulebook (docs/players/rulebooks.md): the options that make the
# rulebook playable as written. `rules.preset` starts from one; other keys override it.
PRESETS: dict[str, dict] = {
    # "Vyhrává ten hráč, který splnil úkol (misi)": a missions game.
    "czech": {
        "objective": "missions",
        "card_territory_bonus": "each",
        "initial_max_per_territory": 4,
        "card_values": "fixed",
        "fixed_values": {"artillery": 4, "infantry": 6, "cavalry": 8, "mixed": 10},
        "fortify": "spread",
        "continent_bonus_after_round": True,
        "max_cards": 5,
    },
    "polish": {
        "card_territory_bonus": "each",
        "card_values": "fixed",
        "objective": "capitals",
        "capital_collapse": True,
        "capital_card_out": True,
        "traded_cards": "bottom",
        "card_draw": "before_fortify",
        "forced_trade": "one_set",
        "elimination_trade_when": "next_reinforce",
        "neutral_dice": "opponent",
    },
    # The encyclopedia's standard setup claims territories; dealing is its alternate method.
    "encyclopedia": {
        "setup": "claim",
        "elimination_trade_at": 5,
        "play_order": "redraw",
    },
    # The how-to article plays the classic game, set up by claiming: "One at a time each
    # player places one army … in any one of the 42 unoccupied territories".
    "howto": {"setup": "claim"},
    "online": {
        "setup": "random",
        "neutral": False,
        "occupy_minimum": "one",
        "cards": False,
        "minimum_reinforcement": "total",
    },
}
# The players a rulebook is written for, where it is not every count from 2 to 6. Czech:
# "Je určena pro tři až šest hráčů".
PRESET_PLAYERS: dict[str, tuple[int, int]] = {"czech": (3, 6)}


@dataclass(frozen=True)
class Rules:
    setup: str = "deal"
    initial_placement: str = "turns"
    placement_batch: int = 1
    initial_max_per_territory: int | None = None
    card_values: str = "escalating"
    fixed_values: dict = field(default_factory=lambda: dict(DEFAULT_FIXED_VALUES))
    card_territory_bonus: str = "once"
    occupy_minimum: str = "dice"
    fortify: str = "adjacent"
    objective: str = "domination"
    capitals_to_win: str = "table"
    capital_collapse: bool = False
    neutral: bool = True
    neutral_reinforcement: str = "opponent"
    # A player dropped for missed turns: the seat turns neutral, or a computer player
    # plays it on with its territories and cards (docs/players/computer-players.md).
    dropped_seat: str = "neutral"
    deadline_seconds: int = 86400
    max_missed_turns: int = 3
    # Nothing in the rulebooks forces an attack, so a game can go on for ever; the big sites
    # offer a round limit, after which the player holding most territories wins.
    round_limit: int | None = None
    # Fog of war: a seat sees only its own territories, their neighbours and its teammates'
    # (docs/players/rules.md "Fog of war").
    fog: bool = False
    # Teams of this many seats (1: every player for themselves); seat s plays in team
    # s % (players / team_size) (docs/players/rules.md "Teams").
    team_size: int = 1
    # ---- each rulebook as written (docs/players/rulebooks.md) ----
    # The rulebook preset the game started from (None: none); the other options say what
    # the game actually plays.
    preset: str | None = None
    # Czech: a continent pays only if held since the start of the player's previous turn.
    continent_bonus_after_round: bool = False
    # Czech: 5. A hand never holds more; a draw or an elimination above it is traded at once.
    max_cards: int | None = None
    # A conqueror taking this many cards or more trades at once until fewer than five remain.
    elimination_trade_at: int = 6
    # Polish: the cards taken wait for the conqueror's next reinforce phase instead.
    elimination_trade_when: str = "immediately"
    # Polish: five cards force one set, more only by choice.
    forced_trade: str = "until_below_5"
    # Polish: traded cards go straight under the draw pile.
    traded_cards: str = "discard"
    # Polish: the turn's card is drawn as the attack ends, before fortifying.
    card_draw: str = "end_of_turn"
    # The online implementation plays without cards.
    cards: bool = True
    # Online: at least 3 for the whole reinforcement, continent bonuses included.
    minimum_reinforcement: str = "territories"
    # Polish two-player game: the player not attacking sets the neutral's defence dice.
    neutral_dice: str = "max"
    # Polish: each capital's territory card leaves the deck.
    capital_card_out: bool = False
    # Encyclopedia: a fresh draw after setup decides who plays first.
    play_order: str = "setup"

    def to_dict(self) -> dict:
        # As asdict(), whose deep copy of every field is the cost of a game view: only the
        # fixed values are mutable, so only they are copied.
        data = {name: getattr(self, name) for name in _RULE_ORDER}
        data["fixed_values"] = dict(self.fixed_values)
        return data

    @classmethod
    def from_dict(cls, data: dict) -> Rules:
        """Trusting constructor for stored rules (validated when the game was made)."""
        return cls(**{k: v for k, v in data.items() if k in _RULE_NAMES})

    def has_neutral(self, players: int) -> bool:
        """Whether the two-player neutral army plays."""
        return players == 2 and self.neutral

    def team_count(self, players: int) -> int:
        """How many teams (one per player without teams)."""
        return players // self.team_size

    def allies(self, players: int, seat) -> frozenset:
        """The seat and its teammates (nobody for a spectator or the neutral): seat s plays
        in team s % teams."""
        if not isinstance(seat, int) or isinstance(seat, bool):
            return frozenset()
        teams = self.team_count(players)
        return frozenset(range(seat % teams, players, teams))


_RULE_ORDER = tuple(f.name for f in fields(Rules))
_RULE_NAMES = frozenset(_RULE_ORDER)


def _int(raw: dict, key: str, default, low: int, high: int | None = None):
    value = raw.get(key, default)
    if value is None and default is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRules(f"rules.{key} must be a whole number")
    if value < low or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise BadRules(f"rules.{key} must be {bounds}")
    return value


def validate_rules(raw: dict | None, players: int, board: Board | None = None) -> Rules:
    """Check a game's requested options for a table on `board` (default: the classic
    map), filling in the defaults; raises BadRules."""
    board = board or classic()
    if raw is None:
        raw = {}
    if not isinstance(raw, dict):
        raise BadRules("rules must be an object")
    preset = raw.get("preset")
    if preset is not None:
        # A list or an object is no name (and `in` a dict would raise on its hash).
        if not isinstance(preset, str) or preset not in PRESETS:
            raise BadRules(f"rules.preset must be one of: {', '.join(PRESETS)}")
        # The rulebook's options first; whatever else the request names overrides them.
        raw = {**PRESETS[preset], **raw}
    if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 6:
        raise BadRules("players must be between 2 and 6")
    known = {f.name for f in fields(Rules)}
    unknown = sorted(set(raw) - known)
    if unknown:
        raise BadRules(f"unknown rule option(s): {', '.join(unknown)}")
    defaults = Rules()
    values: dict = {}
    for key, allowed in CHOICES.items():
        value = raw.get(key, getattr(defaults, key))
        if not isinstance(value, str) or value not in allowed:
            raise BadRules(f"rules.{key} must be one of: {', '.join(allowed)}")
        values[key] = value
    for key in SWITCHES:
        value = raw.get(key, getattr(defaults, key))
        if not isinstance(value, bool):
            raise BadRules(f"rules.{key} must be true or false")
        values[key] = value
    values["placement_batch"] = _int(raw, "placement_batch", 1, 1, 100)
    values["deadline_seconds"] = _int(raw, "deadline_seconds", 86400, 10, 365 * 86400)
    values["max_missed_turns"] = _int(raw, "max_missed_turns", 3, 1, 100)
    values["round_limit"] = _int(raw, "round_limit", None, 1, 10_000)
    values["team_size"] = _int(raw, "team_size", 1, 1, 3)
    # At least five: any five cards hold a set, so a full hand can always make room.
    values["max_cards"] = _int(raw, "max_cards", None, 5, 44)
    values["elimination_trade_at"] = _int(raw, "elimination_trade_at", 6, 5, 44)
    values["preset"] = preset
    _check_combinations(values, players)
    _check_map(values, players, board)
    cap = _int(raw, "initial_max_per_territory", None, 1, 1000)
    if cap is not None:
        slots = players + (1 if players == 2 and values["neutral"] else 0)
        fewest_territories = len(board.territories) // slots
        needed = -(-board.starting_armies[players] // fewest_territories)
        if cap < needed:
            raise BadRules(
                f"rules.initial_max_per_territory must be at least {needed} "
                f"with {players} players, or the starting armies do not fit"
            )
    values["initial_max_per_territory"] = cap
    fixed = raw.get("fixed_values", defaults.fixed_values)
    if not isinstance(fixed, dict) or set(fixed) - set(DEFAULT_FIXED_VALUES):
        raise BadRules("rules.fixed_values takes infantry, cavalry, artillery and mixed")
    merged = dict(DEFAULT_FIXED_VALUES)
    for key, value in fixed.items():
        if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 1000:
            raise BadRules(f"rules.fixed_values.{key} must be a whole number from 1 to 1000")
        merged[key] = value
    values["fixed_values"] = merged
    return Rules(**values)


def _check_map(values: dict, players: int, board: Board) -> None:
    if not board.min_players <= players <= board.max_players:
        raise BadRules(f"the map {board.id} is for {board.min_players} to {board.max_players} "
                       f"players; this game has {players}")
    if values["objective"] == "missions" and not board.missions:
        raise BadRules(f"the map {board.id} has no missions: choose another objective")


_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _check_combinations(values: dict, players: int) -> None:
    """Options that cannot be played together, refused with the reason."""
    low, high = PRESET_PLAYERS.get(values["preset"], (2, 6))
    if not low <= players <= high:
        raise BadRules(
            f"rules.preset {values['preset']} is for {_COUNTS[low]} to {_COUNTS[high]} "
            f"players, as its rulebook says; this game has {players}")
    size = values["team_size"]
    if size > 1:
        if players % size or players // size < 2:
            raise BadRules(
                f"rules.team_size {size} needs a multiple of {size} players and at least two "
                f"teams ({2 * size}{' or ' + str(3 * size) if 3 * size <= 6 else ''} players)"
            )
        if values["objective"] != "domination":
            raise BadRules(
                f"{values['objective']} are not played with teams: a team wins by domination")
    if values["fog"] and values["setup"] == "claim":
        raise BadRules(
            "fog is not played with setup claim: claiming needs the whole board in sight "
            "(use deal or random)")


def capitals_needed(rules: Rules, players: int) -> int:
    """How many capitals, the player's own included, win a `capitals` game."""
    if rules.capitals_to_win == "all":
        return players
    return {2: 2, 3: 2, 4: 3, 5: 3, 6: 4}[players]
