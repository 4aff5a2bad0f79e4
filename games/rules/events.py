"""What happened: the event record, its JSON form, and the event types."""

from __future__ import annotations

from dataclasses import dataclass

# Types CONTRACT.md requires, and the ones this engine adds (extra fields and types are allowed).
GAME_STARTED = "game_started"
TERRITORIES_DEALT = "territories_dealt"
TERRITORY_CLAIMED = "territory_claimed"
DECK_SHUFFLED = "deck_shuffled"  # data.cards hidden from everyone until the end
MISSIONS_DEALT = "missions_dealt"  # each seat sees only its own
ARMIES_PLACED = "armies_placed"
PLACEMENT_SUBMITTED = "placement_submitted"  # simultaneous placement, hidden until all are in
CAPITAL_CHOSEN = "capital_chosen"  # territory hidden from the others
TURN_STARTED = "turn_started"
CARDS_TRADED = "cards_traded"
BATTLE = "battle"
OCCUPIED = "occupied"
CAPITAL_CAPTURED = "capital_captured"
FORTIFIED = "fortified"
CARD_DRAWN = "card_drawn"
PLAYER_ELIMINATED = "player_eliminated"
PLAYER_DROPPED = "player_dropped"
TURN_TIMED_OUT = "turn_timed_out"
TURN_ENDED = "turn_ended"
ATTACK_ENDED = "attack_ended"
DEFENSE_SET = "defense_set"
GAME_FINISHED = "game_finished"
# A moderator's actions carry {by, reason}.
GAME_PAUSED = "game_paused"
GAME_RESUMED = "game_resumed"
GAME_ABORTED = "game_aborted"
MODERATOR_ENDED_TURN = "moderator_ended_turn"


@dataclass(slots=True)
class Event:
    seq: int
    type: str
    data: dict
    actor: int | None = None  # the seat whose command made it; None for the system

    def to_dict(self) -> dict:
        return {"seq": self.seq, "type": self.type, "actor": self.actor, "data": self.data}

    @classmethod
    def from_dict(cls, raw: dict) -> Event:
        return cls(raw["seq"], raw["type"], raw["data"], raw.get("actor"))
