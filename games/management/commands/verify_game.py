"""manage.py verify_game <id>: replay from zero and check snapshots, projection and dice."""

from django.core.management.base import BaseCommand, CommandError

import engine as rules
from engine.moves import clock_key
from games.models import Game, Snapshot
from games.store.log import stored_events
from games.store.states import ENGINE_VERSION, status_of


def check_game(game: Game) -> list[str]:
    """Every way the stored game could disagree with a replay of its log from zero."""
    problems = []
    events = stored_events(game)
    seqs = [e.seq for e in events]
    if seqs != list(range(1, len(seqs) + 1)):
        problems.append("event seqs are not 1..N without gaps")
    snapshots = dict(
        Snapshot.objects.filter(game=game, engine_version=ENGINE_VERSION).values_list("seq", "state")
    )
    state = None
    for event in events:
        state = rules.evolve(state, event)
        if event.seq in snapshots:
            if rules.GameState.from_dict(snapshots[event.seq]) != state:
                problems.append(f"snapshot at {event.seq} differs from the replay")
    if state is None:
        if game.version != 0 or game.status != Game.OPEN:
            problems.append("no events, but the game is not open at version 0")
        return problems
    expected = {
        "version": state.version, "turn": state.turn, "current_seat": state.current,
        "winner": state.winner,
    }
    for field, value in expected.items():
        if getattr(game, field) != value:
            problems.append(f"projection {field} is {getattr(game, field)!r}, replay says {value!r}")
    if game.status != status_of(state):
        problems.append(f"projection status is {game.status}, replay says {status_of(state)}")
    if clock_key(state) is None and game.deadline is not None and game.status != Game.ABORTED:
        problems.append("a finished game still has a deadline")
    if game.is_over:
        # The row's own account of the seed, checked against the log's game_started.
        record = {"id": game.game_id, "server_seed": game.seed, "seed": game.dice_seed,
                  "seed_hash": game.seed_hash, "contributions": game.contributions or [],
                  "events": events}
        result = rules.verify(record)
        problems.extend(result.problems)
    return problems


class Command(BaseCommand):
    help = "Check a game: replay from zero against snapshots, projection and, once over, dice."

    def add_arguments(self, parser):
        parser.add_argument("game_id", type=int)

    def handle(self, *args, game_id, **options):
        game = Game.objects.filter(pk=game_id).first()
        if game is None:
            raise CommandError(f"no game {game_id}")
        problems = check_game(game)
        if problems:
            for problem in problems:
                self.stderr.write(problem)
            raise CommandError(f"game {game_id}: {len(problems)} problem(s)")
        dice = "every die checked against the revealed seed" if game.is_over else (
            "dice are checked once the game is over")
        self.stdout.write(f"game {game_id}: {game.version} events replay cleanly; {dice}")
