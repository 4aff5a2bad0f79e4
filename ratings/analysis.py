"""A finished game's analysis, a projection built once by the analysis worker at a bounded
cost (each side's win chance after every turn, by bots.outlook's play-outs, and the turning
points with their dice luck), and read as stored: a read never replays the log.

Its cost has a ceiling whatever the game's length: at most CONQUEST_ANALYSIS_POINTS
positions are played out (evenly apart, coarse to fine), each until its estimate's 95 %
margin is within CONQUEST_ANALYSIS_MARGIN points or it has had CONQUEST_ANALYSIS_PLAYOUTS
play-outs, and the whole stops at CONQUEST_ANALYSIS_CPU_SECONDS of CPU. The turns between
positions played out are drawn on the straight line between them. It is done in chunks of
about CONQUEST_ANALYSIS_CHUNK_SECONDS, one task each; the game's row is the lease: a chunk
runs only for the task holding the row's token, so copies of a message do nothing."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone

from bots.outlook import (
    drawn_between,
    estimate,
    margin,
    margin_of,
    result_point,
    sample,
    turning_points,
)
from engine.story import Story, read_story, series
from games.boards import board_of_game
from games.models import Game
from games.store import log
from ratings.luck import luck_by_seat
from ratings.models import GameAnalysis
from ratings.stories import story_until

# Games a sweep queues at most at once (the rest at its next run).
SWEEP = 20
# A position's play-outs are played this many at a time, and at least twice that many.
ROUND = 4
# A queued chunk whose message the broker lost is queued again this long after it was queued
# (a copy of a message still waiting then finds another token and does nothing).
QUEUED_LEASE = timedelta(hours=1)


def running_lease() -> timedelta:
    """How long a chunk may be running before its worker counts as dead: twice the task's
    time limit."""
    return timedelta(seconds=2 * settings.CONQUEST_ANALYSIS_TASK_SECONDS)


def story_of(game: Game, positions: bool = False) -> Story:
    """The game's story from its whole log (every event: call it for a finished game, or
    for what a seat may see of it: games.seat_views decides that)."""
    return read_story(log.stored_events(game), keep_positions=positions)


def done(game_id: int) -> GameAnalysis | None:
    """The game's finished analysis, if it has one with chances (its turning points cite
    the series' own values: they were chosen from it, once, when it was concluded)."""
    row = GameAnalysis.objects.filter(game_id=game_id, done_at__isnull=False).first()
    if row is None or not row.chances:
        return None
    return row


@dataclass
class Stored:
    """What the pages and the API show of a game's analysis: `state` is "done" (`row` holds
    it), "pending" (queued or being worked out), "off" (analysis is turned off and this game
    has none) or "not_analysed" (over, but nothing could be played out within the ceiling)."""

    state: str
    row: GameAnalysis | None = None


def stored(game_id: int, for_api: bool = False) -> Stored:
    """The game's analysis as stored, in one query: never computed on a read. `for_api`:
    without what only the worker needs (the chances are in `series` with its points)."""
    rows = GameAnalysis.objects.filter(game_id=game_id)
    if for_api:
        rows = rows.defer("estimates", "sampled", "chances")
    row = rows.first()
    if row is not None and row.done_at is not None:
        return Stored("done", row) if row.turns_done else Stored("not_analysed", row)
    if row is None and not settings.CONQUEST_ANALYSIS:
        return Stored("off")
    return Stored("pending", row)


def queue(game_id: int) -> str | None:
    """Open the analysis of a finished game: its row, queued under a new token (returned);
    None if it has one already (opened once, whoever asks), or analysis is off."""
    if not settings.CONQUEST_ANALYSIS or not Game.objects.filter(
            pk=game_id, status=Game.FINISHED).exists():
        return None
    token = uuid.uuid4().hex
    try:
        with transaction.atomic():
            GameAnalysis.objects.create(game_id=game_id, playouts=0, token=token,
                                        lease_until=timezone.now() + QUEUED_LEASE)
    except IntegrityError:
        return None
    return token


def sweep(limit: int = SWEEP) -> list[tuple[int, str]]:
    """(game, token) of each analysis to queue now: finished games without one (their
    message lost, or over before analysis was on), and those whose lease lapsed (a lost
    message, a dead worker). Each is queued under a new token, so it runs once."""
    if not settings.CONQUEST_ANALYSIS:
        return []
    found = []
    for game_id in (Game.objects.filter(status=Game.FINISHED, analysis__isnull=True)
                    .order_by("finished_at", "id").values_list("pk", flat=True)[:limit]):
        token = queue(game_id)
        if token is not None:
            found.append((game_id, token))
    now = timezone.now()
    lapsed = (GameAnalysis.objects.exclude(state=GameAnalysis.DONE)
              .filter(done_at__isnull=True).filter(
                  Q(lease_until__lt=now) | Q(lease_until__isnull=True))
              .order_by("created_at").values_list("game_id", "token")[:limit])
    for game_id, old in lapsed:
        token = uuid.uuid4().hex
        if GameAnalysis.objects.filter(game_id=game_id, token=old, done_at__isnull=True).update(
                state=GameAnalysis.QUEUED, token=token, lease_until=now + QUEUED_LEASE):
            found.append((game_id, token))
    return found


def claim(game_id: int, token: str) -> bool:
    """Whether the task holding `token` may run the game's next chunk (it then holds the
    row until it saves or its lease lapses): one conditional UPDATE, so that of two
    copies of one message only one runs."""
    return GameAnalysis.objects.filter(
        game_id=game_id, state=GameAnalysis.QUEUED, token=token).update(
        state=GameAnalysis.RUNNING, lease_until=timezone.now() + running_lease()) == 1


def run_chunk(game_id: int, token: str) -> str | None:
    """Play out the game's next positions, about CONQUEST_ANALYSIS_CHUNK_SECONDS of CPU
    (at least one position), if `token` holds its row; save them, and return the token of
    the next chunk (None when done, or when this task was not the one to run it)."""
    if not claim(game_id, token):
        return None
    started = time.process_time()
    row = GameAnalysis.objects.get(game_id=game_id)
    game = Game.objects.filter(pk=game_id, status=Game.FINISHED).first()
    if game is None:  # an old row of a game no longer finished (voided, restored)
        GameAnalysis.objects.filter(game_id=game_id, token=token).delete()
        return None
    story = story_of(game, positions=True)
    if not row.sampled:
        row.sampled = sample(len(story.turns), settings.CONQUEST_ANALYSIS_POINTS)
        row.series = charts(story)
    estimates = list(row.estimates or [])
    ceiling = settings.CONQUEST_ANALYSIS_CPU_SECONDS

    def spent() -> float:
        return row.cpu_seconds + time.process_time() - started

    while len(estimates) < len(row.sampled) and spent() < ceiling and (
            not estimates[len(row.estimates or []):]
            or time.process_time() - started < settings.CONQUEST_ANALYSIS_CHUNK_SECONDS):
        index = row.sampled[len(estimates)]
        found = played_out(story, index, game.dice_seed, lambda: spent() >= ceiling)
        if found is not None:
            estimates.append(found)
    finished = len(estimates) == len(row.sampled) or spent() >= ceiling
    fields = {"estimates": estimates, "turns_done": len(estimates), "sampled": row.sampled,
              "series": row.series}
    if finished:
        fields.update(concluded(story, estimates), state=GameAnalysis.DONE, token="",
                      lease_until=None, done_at=timezone.now())
        fields["series"] = with_chances(row.series, fields["chances"], estimates)
    else:
        fields.update(state=GameAnalysis.QUEUED, token=uuid.uuid4().hex,
                      lease_until=timezone.now() + QUEUED_LEASE)
    fields["cpu_seconds"] = spent()
    saved = GameAnalysis.objects.filter(game_id=game_id, state=GameAnalysis.RUNNING,
                                        token=token).update(**fields)
    return fields["token"] if saved and not finished else None


def played_out(story: Story, index: int, seed: str, over_budget) -> list | None:
    """[index, [chance of each side], play-outs] of the position at the start of turn
    `index`: rounds of play-outs until the margin is narrow enough, the per-position cap is
    reached or the game's budget is spent (None if not even one round was played)."""
    position, turn = story.positions[index], story.turns[index].turn
    most = max(settings.CONQUEST_ANALYSIS_PLAYOUTS, 2 * ROUND)
    wins, played = [0.0] * story.teams, 0
    while played < most and not (played and over_budget()):
        shares = estimate(position, story.teams, seed, turn, ROUND, first=played)
        wins = [w + s * ROUND for w, s in zip(wins, shares, strict=True)]
        played += ROUND
        chances = [w / played for w in wins]
        if played >= 2 * ROUND and margin_of(chances, played) <= \
                settings.CONQUEST_ANALYSIS_MARGIN:
            break
    return [index, [w / played for w in wins], played] if played else None


def concluded(story: Story, estimates: list) -> dict:
    """The fields of a finished analysis: every turn's chances, the turning points."""
    if not estimates or story.start is None:
        return {"chances": [], "turning_points": [], "playouts": 0}
    by_index = {index: chances for index, chances, _ in estimates}
    result = result_point(story, [by_index[max(by_index)]])
    chances = drawn_between(len(story.turns), by_index, result)
    points = turning_points(story, chances, sampled=sorted(by_index))
    return {"chances": chances, "turning_points": _with_luck(points, story),
            "playouts": min(count for _, _, count in estimates)}


def charts(story: Story) -> dict:
    """The charts' numbers as the API gives them (one point per turn, and the start), stored
    with the analysis so that a read never replays the log."""
    numbers = series(story)
    seats = ([None] + [t.seat for t in story.turns])[:len(numbers["turns"])]
    return {"seats": story.seats, "teams": story.teams, "turns": [
        {"turn": turn, "seat": seat, **{key: [row[i] for row in numbers[key]]
                                        for key in ("territories", "armies", "income")}}
        for i, (turn, seat) in enumerate(zip(numbers["turns"], seats, strict=True))]}


def with_chances(numbers: dict, chances: list, estimates: list) -> dict:
    """The charts' numbers with each point's chances (rounded as the API gives them) and
    whether its position was played out (else drawn between; the last is the result)."""
    estimated = {index for index, _, _ in estimates}
    turns = [{**point, "chances": [round(c, 3) for c in point_chances],
              "played_out": number in estimated or number == len(chances) - 1}
             for number, (point, point_chances) in enumerate(zip(numbers["turns"], chances,
                                                                strict=False))]
    return {**numbers, "turns": turns or numbers["turns"]}


def _with_luck(points: list[dict], story: Story) -> list[dict]:
    for point in points:
        turn = story.turns[point["index"] - 1]
        luck = luck_by_seat(turn.battles, story.seats)[turn.seat]
        point["luck"] = round(luck.net, 1) if luck.battles else None
    return points


def do_analyse(game_id: int) -> bool:
    """Run the game's next chunk now, in this process (opening its analysis if it has
    none): True while chunks are left. (The worker's tasks go through run_chunk.)"""
    token = queue(game_id) or GameAnalysis.objects.filter(
        game_id=game_id, state=GameAnalysis.QUEUED).values_list("token", flat=True).first()
    return token is not None and run_chunk(game_id, token) is not None


def outline(game: Game, row: GameAnalysis) -> Story:
    """What telling a turning point needs of the story (its seats, sides and board),
    without the log."""
    return Story(seats=row.series["seats"], teams=row.series["teams"],
                 board=board_of_game(game))


def report(game: Game, names: dict, words) -> tuple[int, dict]:
    """The API's answer for a game that is over (or played in the open): (status code,
    body). `words(point, story)` tells a turning point in the reader's language. A finished
    game's is read as stored (one row); a game in play's from its story as kept, carried on
    with the moves since the last read (ratings.stories)."""
    if game.status != Game.FINISHED:
        story = story_until(game, None)  # the moves since the last read, not the whole log
        return 200, {**_body(game, charts(story), names),
                     "status": "in_play" if not game.is_over else "aborted"}
    found = stored(game.pk, for_api=True)
    row = found.row
    body = _body(game, row.series if row is not None and row.series else None, names)
    if found.state != "done":
        return (202 if found.state == "pending" else 200), {**body, "status": found.state}
    story = outline(game, row)
    return 200, {**body, "status": "done", "playouts": row.playouts,
                 "margin": margin(row.playouts),
                 "turning_points": [{**p, "text": words(p, story)} for p in row.turning_points]}


def _body(game: Game, numbers: dict | None, names: dict) -> dict:
    seats, teams = (numbers["seats"], numbers["teams"]) if numbers else (game.players, None)
    teams = teams or seats
    return {"game": game.pk, "seats": seats, "teams": teams,
            "sides": [[s for s in range(seats) if s % teams == side] for side in range(teams)],
            "names": {str(seat): name for seat, name in names.items()},
            "turns": numbers["turns"] if numbers else [],
            "playouts": None, "margin": None, "turning_points": []}
