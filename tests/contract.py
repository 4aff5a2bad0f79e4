"""What docs/bots/contract.md and docs/players/rules.md fix, copied once for the tests: they check the engine and
the API against the documents, not against the code that makes the answers, so a change
there breaks a test."""

from __future__ import annotations

CONTINENTS = {
    "north_america": (5, "alaska northwest_territory greenland alberta ontario quebec "
                         "western_united_states eastern_united_states central_america"),
    "south_america": (2, "venezuela peru brazil argentina"),
    "europe": (5, "iceland scandinavia great_britain northern_europe western_europe "
                  "southern_europe ukraine"),
    "africa": (3, "north_africa egypt east_africa congo south_africa madagascar"),
    "asia": (7, "ural siberia yakutsk kamchatka irkutsk mongolia japan afghanistan china "
                "middle_east india siam"),
    "australia": (2, "indonesia new_guinea western_australia eastern_australia"),
}

_BORDER_LINES = """
alaska: northwest_territory alberta kamchatka
northwest_territory: alberta ontario greenland
greenland: ontario quebec iceland
alberta: ontario western_united_states
ontario: western_united_states eastern_united_states quebec
quebec: eastern_united_states
western_united_states: eastern_united_states central_america
eastern_united_states: central_america
central_america: venezuela
venezuela: peru brazil
peru: brazil argentina
brazil: argentina north_africa
iceland: great_britain scandinavia
scandinavia: great_britain northern_europe ukraine
great_britain: northern_europe western_europe
northern_europe: ukraine southern_europe western_europe
western_europe: southern_europe north_africa
southern_europe: ukraine middle_east egypt north_africa
ukraine: ural afghanistan middle_east
north_africa: egypt east_africa congo
egypt: middle_east east_africa
east_africa: congo south_africa madagascar middle_east
congo: south_africa
south_africa: madagascar
ural: siberia china afghanistan
siberia: yakutsk irkutsk mongolia china
yakutsk: irkutsk kamchatka
kamchatka: irkutsk mongolia japan
irkutsk: mongolia
mongolia: china japan
afghanistan: china india middle_east
china: siam india
middle_east: india
india: siam
siam: indonesia
indonesia: new_guinea western_australia
new_guinea: western_australia eastern_australia
western_australia: eastern_australia
"""

# Each line names a territory and the later ones it borders.
BORDERS = {
    frozenset((line.split(":")[0], other))
    for line in _BORDER_LINES.strip().splitlines()
    for other in line.split(":")[1].split()
}

# docs/players/rules.md's options with their defaults.
DEFAULT_RULES = {
    "setup": "deal",
    "initial_placement": "turns",
    "placement_batch": 1,
    "initial_max_per_territory": None,
    "card_values": "escalating",
    "fixed_values": {"infantry": 4, "cavalry": 6, "artillery": 8, "mixed": 10},
    "card_territory_bonus": "once",
    "occupy_minimum": "dice",
    "fortify": "adjacent",
    "objective": "domination",
    "capitals_to_win": "table",
    "capital_collapse": False,
    "neutral": True,
    "neutral_reinforcement": "opponent",
    "deadline_seconds": 86400,
    "max_missed_turns": 3,
    "round_limit": None,
    "dropped_seat": "neutral",
    "fog": False,
    "team_size": 1,
    "preset": None,
    "continent_bonus_after_round": False,
    "max_cards": None,
    "elimination_trade_at": 6,
    "elimination_trade_when": "immediately",
    "forced_trade": "until_below_5",
    "traded_cards": "discard",
    "card_draw": "end_of_turn",
    "cards": True,
    "minimum_reinforcement": "territories",
    "neutral_dice": "max",
    "capital_card_out": False,
    "play_order": "setup",
}
