"""A finished game's analysis, stored once: each side's win chance after every turn
(bots.outlook's play-outs, a chunk per task) and the turning points with their dice luck."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from bots.outlook import estimate, margin, playouts_per_turn, result_point, turning_points
from engine.story import Story, read_story, series
from games import log
from games.models import Game
from ratings.luck import luck_by_seat
from ratings.models import GameAnalysis

# Finished games a sweep queues at most at once (the rest at its next run).
SWEEP = 20
# An analysis begun this long ago and not done has lost its chain of tasks: begin it again.
STALLED = timedelta(minutes=15)


def story_of(game: Game, positions: bool = False) -> Story:
    """The game's story from its whole log (every event: call it for a finished game, or
    for what a seat may see of it: games.seat_views decides that)."""
    return read_story(log.stored_events(game), keep_positions=positions)


def done(game_id: int) -> GameAnalysis | None:
    """The game's finished analysis, its turning points citing the series' own values."""
    row = GameAnalysis.objects.filter(game_id=game_id, done_at__isnull=False).first()
    if row is not None:
        row.turning_points = [cited(point, row.chances) for point in row.turning_points]
    return row


def cited(point: dict, chances: list[list[float]]) -> dict:
    """A turning point with its side's chance before and after its turn as the series
    (the chart, its table) has them: older analyses stored the means of a round around it."""
    side, index = point["side"], point["index"]
    before, after = chances[index - 1][side], chances[index][side]
    return {**point, "before": round(before, 3), "after": round(after, 3),
            "swing": round(abs(after - before), 3)}


def _with_luck(points: list[dict], story: Story) -> list[dict]:
    for point in points:
        turn = story.turns[point["index"] - 1]
        luck = luck_by_seat(turn.battles, story.seats)[turn.seat]
        point["luck"] = round(luck.net, 1) if luck.battles else None
    return points


def do_analyse(game_id: int, chunk: int | None = None) -> bool:
    """Estimate the next turns of a finished game, `chunk` play-outs' worth (at least one
    turn), and save them unless another worker saved first; True while turns are left."""
    game = Game.objects.filter(pk=game_id, status=Game.FINISHED).first()
    if game is None or done(game_id):
        return False
    story = story_of(game, positions=True)
    row, _ = GameAnalysis.objects.get_or_create(game=game, defaults={
        "playouts": playouts_per_turn(settings.CONQUEST_ANALYSIS_PLAYOUTS, len(story.turns))})
    chances, start = list(row.chances), row.turns_done
    budget = chunk or settings.CONQUEST_ANALYSIS_CHUNK
    seed, spent = game.dice_seed, 0
    while len(chances) < len(story.turns) and (spent == 0 or spent < budget):
        index = len(chances)
        chances.append(estimate(story.positions[index], story.teams, seed,
                                story.turns[index].turn, row.playouts))
        spent += row.playouts
    fields = {"chances": chances, "turns_done": len(chances)}
    finished = len(chances) == len(story.turns)
    if finished:
        chances.append(result_point(story, chances))
        fields.update(turning_points=_with_luck(turning_points(story, chances), story),
                      done_at=timezone.now())
    with transaction.atomic():
        GameAnalysis.objects.filter(game=game, turns_done=start,
                                    done_at__isnull=True).update(**fields)
    return not finished


def pending(limit: int = SWEEP) -> list[int]:
    """Finished games without a finished analysis, oldest first: none begun, or one begun
    long enough ago that its chain of tasks must have been lost."""
    lost = timezone.now() - STALLED
    return list(Game.objects.filter(status=Game.FINISHED, finished_at__isnull=False)
                .exclude(analysis__done_at__isnull=False)
                .exclude(analysis__created_at__gt=lost)
                .order_by("finished_at", "id").values_list("pk", flat=True)[:limit])


def report(game: Game, names: dict, words) -> tuple[int, dict]:
    """The API's answer for a game that is over (or played in the open): (status code,
    body). `words(point, story)` tells a turning point in the reader's language."""
    story = story_of(game)
    numbers = series(story)
    points = [{"turn": turn, "seat": seat, **{key: [row[i] for row in numbers[key]]
                                              for key in ("territories", "armies", "income")}}
              for i, (turn, seat) in enumerate(zip(numbers["turns"],
                                                   [None] + [t.seat for t in story.turns],
                                                   strict=True))]
    body = {"game": game.pk, "seats": story.seats, "teams": story.teams,
            "sides": [[s for s in range(story.seats) if story.team_of(s) == side]
                      for side in range(story.teams)],
            "names": {str(seat): name for seat, name in names.items()}, "turns": points,
            "playouts": None, "margin": None, "turning_points": []}
    if game.status != Game.FINISHED:
        return 200, {**body, "status": "in_play" if not game.is_over else "aborted"}
    row = done(game.pk)
    if row is None:
        return 202, {**body, "status": "pending"}
    for point, chances in zip(points, row.chances, strict=False):
        point["chances"] = [round(c, 3) for c in chances]
    return 200, {**body, "status": "done", "playouts": row.playouts,
                 "margin": margin(row.playouts),
                 "turning_points": [{**p, "text": words(p, story)} for p in row.turning_points]}
