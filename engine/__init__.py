"""The rules of the game as a pure event-sourced core: decide, evolve, replay, view, verify.

No Django, DRF or Celery here; the service layer stores the events this package makes.
"""

from . import maps
from .commands import Moderate, MoveDeadline, StartGame, TimeOut, parse_command
from .decide import decide, decide_and_apply
from .errors import RuleViolation
from .events import Event
from .evolve import evolve, replay
from .fair import FairDice, new_seed, seed_hash
from .options import Rules, validate_rules
from .pieces import COLORS, NEUTRAL
from .sight import Sight, sight_of
from .state import ENGINE_VERSION, GameState
from .verify import Verification, verify
from .view import redact_event, redact_events, view

__all__ = [
    "COLORS", "ENGINE_VERSION", "NEUTRAL", "Event",
    "FairDice", "GameState", "Moderate", "MoveDeadline",
    "RuleViolation", "Rules", "StartGame", "TimeOut",
    "Verification", "decide", "decide_and_apply", "evolve", "new_seed", "parse_command",
    "redact_event", "redact_events", "replay", "Sight", "sight_of", "seed_hash",
    "maps", "validate_rules", "verify", "view",
]
