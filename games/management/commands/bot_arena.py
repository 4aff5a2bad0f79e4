"""manage.py bot_arena --players hard,normal,normal --games N [--rules JSON] [--seed S]
[--map ID] [--rotate]: computer players against each other through the rules engine alone
(docs/bots/contract.md), on any map a game may be made on (games.boards)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

import bots
from bots.report import run
from engine import validate_rules
from engine.errors import BadRules
from games.boards import UnknownMap, board_for_new_game


class Command(BaseCommand):
    help = "Play bots against each other and print each level's wins and decision times."

    def add_arguments(self, parser):
        parser.add_argument("--players", required=True,
                            help="levels, one per seat, e.g. hard,normal,normal")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--rules", default="{}", help="rule options as JSON")
        parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
        parser.add_argument("--map", default="classic", dest="map_id",
                            help="the map's id (GET /api/v1/maps/), default classic")
        parser.add_argument("--workers", type=int, default=None,
                            help="processes (default: one per core)")
        parser.add_argument("--rotate", action="store_true",
                            help="turn the seats one place each game (every level plays "
                                 "every seat equally often)")

    def handle(self, *args, **options):
        levels = [level.strip() for level in options["players"].split(",") if level.strip()]
        unknown = [level for level in levels if level not in bots.LEVELS]
        if unknown or not 2 <= len(levels) <= 6:
            raise CommandError(f"--players takes 2 to 6 of {', '.join(bots.LEVELS)}")
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        try:
            board = board_for_new_game(options["map_id"])
        except UnknownMap as problem:
            raise CommandError(f"--map: {problem}") from None
        try:
            rules = json.loads(options["rules"])
            validate_rules(rules, len(levels), board)
        except (ValueError, BadRules) as problem:
            raise CommandError(f"--rules: {problem}") from None
        summary = run(levels, options["games"], rules, options["seed"], options["workers"],
                      board, rotate=options["rotate"])
        self.stdout.write(f"{','.join(levels)} on {board.id} {json.dumps(rules)}"
                          + (" (seats rotated)" if options["rotate"] else ""))
        for line in summary.lines():
            self.stdout.write(line)
        if summary.refused:
            raise CommandError("a bot sent a command the rules refused")
