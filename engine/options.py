"""Rule options of docs/players/rules.md, each declared once (`OPTIONS`: name, default,
choices or bounds, where the create form shows it), the Rules value made from them, the
rulebooks' presets, and their validation. Validation, the engine's audit, the create form
and its template, the rules panel, the API's schema and the words (words/rules.py explains
each declared option: a test holds them complete) all read the declarations."""

from __future__ import annotations

from dataclasses import dataclass, field, make_dataclass

from .errors import BadRules
from .maps import Board, classic

DEFAULT_FIXED_VALUES = {"infantry": 4, "cavalry": 6, "artillery": 8, "mixed": 10}


@dataclass(frozen=True)
class Option:
    """One rule option: a choice (`choices`), a switch (a true-or-false default) or a whole
    number (`low`..`high`; a default of None means "no limit", and leaving it out keeps
    it). `part`: where the create form shows it (`rules`, `rulebooks`: where the rulebooks
    differ; `clock` and `preset` have fields of their own). `taste`: whether choosing it
    says how a player likes to play (a player's favourite options count those), rather than
    how a table is set up (its clock, its patience, its pace of placing)."""

    name: str
    default: object
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    part: str = "rules"
    taste: bool = True

    @property
    def kind(self) -> str:
        if self.choices:
            return "choice"
        if isinstance(self.default, bool):
            return "switch"
        if self.low is not None:
            return "number"
        return self.name  # fixed_values, preset: checked on their own


# In the order the create form and the rules panel show them.
OPTIONS: tuple[Option, ...] = (
    Option("objective", "domination", ("domination", "missions", "capitals")),
    Option("setup", "deal", ("deal", "claim", "random")),
    Option("initial_placement", "turns", ("turns", "simultaneous")),
    Option("placement_batch", 1, low=1, high=100, taste=False),
    # Checked again against the map and the players: the starting armies must fit.
    Option("initial_max_per_territory", None, low=1, high=1000),
    Option("card_values", "escalating", ("escalating", "fixed")),
    Option("fixed_values", DEFAULT_FIXED_VALUES, taste=False),
    Option("card_territory_bonus", "once", ("once", "each")),
    Option("occupy_minimum", "dice", ("dice", "one")),
    Option("fortify", "adjacent", ("adjacent", "connected", "spread")),
    Option("capitals_to_win", "table", ("table", "all")),
    Option("capital_collapse", False),
    Option("neutral", True),
    Option("neutral_reinforcement", "opponent", ("opponent", "auto", "borders")),
    Option("deadline_seconds", 86400, low=10, high=365 * 86400, part="clock", taste=False),
    Option("max_missed_turns", 3, low=1, high=100, taste=False),
    # Nothing in the rulebooks forces an attack, so a game can go on for ever; the big sites
    # offer a round limit, after which the player holding most territories wins.
    Option("round_limit", None, low=1, high=10_000),
    # A player dropped for missed turns: the seat turns neutral, or a computer player plays
    # it on with its territories and cards (docs/players/computer-players.md).
    Option("dropped_seat", "neutral", ("neutral", "bot")),
    # Fog of war: a seat sees only its own territories, their neighbours and its teammates'
    # (docs/players/rules.md "Fog of war").
    Option("fog", False),
    # Teams of this many seats (1: every player for themselves); seat s plays in team
    # s % (players / team_size) (docs/players/rules.md "Teams").
    Option("team_size", 1, low=1, high=3),
    # ---- each rulebook as written (docs/players/rulebooks.md) ----
    # The rulebook preset the game started from (None: none); the other options say what
    # the game actually plays.
    Option("preset", None, part="preset"),
    # The online implementation plays without cards.
    Option("cards", True, part="rulebooks"),
    # Czech: 5. A hand never holds more; a draw or an elimination above it is traded at
    # once. At least five: any five cards hold a set, so a full hand can always make room.
    Option("max_cards", None, low=5, high=44, part="rulebooks"),
    # Polish: five cards force one set, more only by choice.
    Option("forced_trade", "until_below_5", ("until_below_5", "one_set"), part="rulebooks"),
    # A conqueror taking this many cards or more trades at once until fewer than five remain.
    Option("elimination_trade_at", 6, low=5, high=44, part="rulebooks"),
    # Polish: the cards taken wait for the conqueror's next reinforce phase instead.
    Option("elimination_trade_when", "immediately", ("immediately", "next_reinforce"),
           part="rulebooks"),
    # Polish: traded cards go straight under the draw pile.
    Option("traded_cards", "discard", ("discard", "bottom"), part="rulebooks"),
    # Polish: the turn's card is drawn as the attack ends, before fortifying.
    Option("card_draw", "end_of_turn", ("end_of_turn", "before_fortify"), part="rulebooks"),
    # Online: at least 3 for the whole reinforcement, continent bonuses included.
    Option("minimum_reinforcement", "territories", ("territories", "total"),
           part="rulebooks"),
    # Czech: a continent pays only if held since the start of the player's previous turn.
    Option("continent_bonus_after_round", False, part="rulebooks"),
    # Polish two-player game: the player not attacking sets the neutral's defence dice.
    Option("neutral_dice", "max", ("max", "opponent"), part="rulebooks"),
    # Polish: each capital's territory card leaves the deck.
    Option("capital_card_out", False, part="rulebooks"),
    # Encyclopedia: a fresh draw after setup decides who plays first.
    Option("play_order", "setup", ("setup", "redraw"), part="rulebooks"),
)
OPTION = {option.name: option for option in OPTIONS}
CHOICES = {o.name: o.choices for o in OPTIONS if o.kind == "choice"}
SWITCHES = tuple(o.name for o in OPTIONS if o.kind == "switch")
NUMBERS = tuple(o.name for o in OPTIONS if o.kind == "number")

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


class _RuleQuestions:
    """What the engine asks of a game's rules beyond their values (Rules below)."""

    __slots__ = ()

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


def _field(option: Option):
    if isinstance(option.default, dict):
        return field(default_factory=lambda: dict(option.default))
    return field(default=option.default)


# A game's rules: one frozen field per declared option, with its default.
Rules = make_dataclass("Rules", [(o.name, object, _field(o)) for o in OPTIONS],
                       bases=(_RuleQuestions,), frozen=True)
Rules.__module__ = __name__
_RULE_ORDER = tuple(o.name for o in OPTIONS)
_RULE_NAMES = frozenset(_RULE_ORDER)


def _number(raw: dict, option: Option):
    value = raw.get(option.name, option.default)
    if value is None and option.default is None:
        return None
    low, high = option.low, option.high
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadRules(f"rules.{option.name} must be a whole number")
    if value < low or (high is not None and value > high):
        bounds = f"between {low} and {high}" if high is not None else f"at least {low}"
        raise BadRules(f"rules.{option.name} must be {bounds}")
    return value


def _value(raw: dict, option: Option):
    """One declared option's value in `raw` (its default if left out), or BadRules."""
    if option.kind == "choice":
        value = raw.get(option.name, option.default)
        if not isinstance(value, str) or value not in option.choices:
            raise BadRules(f"rules.{option.name} must be one of: {', '.join(option.choices)}")
        return value
    if option.kind == "switch":
        value = raw.get(option.name, option.default)
        if not isinstance(value, bool):
            raise BadRules(f"rules.{option.name} must be true or false")
        return value
    return _number(raw, option)


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
    unknown = sorted(set(raw) - _RULE_NAMES)
    if unknown:
        raise BadRules(f"unknown rule option(s): {', '.join(unknown)}")
    values: dict = {o.name: _value(raw, o) for o in OPTIONS
                    if o.kind in ("choice", "switch", "number")}
    values["preset"] = preset
    _check_combinations(values, players)
    _check_map(values, players, board)
    cap = values["initial_max_per_territory"]
    if cap is not None:
        slots = players + (1 if players == 2 and values["neutral"] else 0)
        fewest_territories = len(board.territories) // slots
        needed = -(-board.starting_armies[players] // fewest_territories)
        if cap < needed:
            raise BadRules(
                f"rules.initial_max_per_territory must be at least {needed} "
                f"with {players} players, or the starting armies do not fit"
            )
    fixed = raw.get("fixed_values", DEFAULT_FIXED_VALUES)
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
