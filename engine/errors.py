"""The one family of rule violations; each carries a docs/bots/contract.md error code."""

from __future__ import annotations


class RuleViolation(ValueError):
    """A command the rules refuse. `code` is the API's error code; str(self) is the detail."""

    code = "illegal_command"

    def __init__(self, detail: str):
        super().__init__(detail)
        self.detail = detail


def _violation(name: str, code: str, doc: str) -> type[RuleViolation]:
    return type(name, (RuleViolation,), {"code": code, "__doc__": doc})


BadCommand = _violation("BadCommand", "bad_command", "The command is malformed.")
BadRules = _violation("BadRules", "bad_rules", "A rule option is unknown or out of range.")
GameNotActive = _violation("GameNotActive", "game_not_active", "The game is not running.")
NotYourTurn = _violation("NotYourTurn", "not_your_turn", "Someone else must act now.")
WrongPhase = _violation("WrongPhase", "wrong_phase", "The current phase does not allow it.")
UnknownTerritory = _violation("UnknownTerritory", "unknown_territory", "No such territory.")
NotOwner = _violation("NotOwner", "not_owner", "The territory is not the player's.")
BadTarget = _violation("BadTarget", "bad_target", "The player's own territory cannot be attacked.")
NotAdjacent = _violation("NotAdjacent", "not_adjacent", "The territories do not border.")
NotEnoughArmies = _violation("NotEnoughArmies", "not_enough_armies", "Too few armies.")
BadDice = _violation("BadDice", "bad_dice", "A dice count outside the allowed range.")
BadCards = _violation("BadCards", "bad_cards", "Not a set, or not the player's cards.")
MustTrade = _violation("MustTrade", "must_trade", "Five or more cards: trade first.")
ReinforcementsLeft = _violation(
    "ReinforcementsLeft", "reinforcements_left", "Armies remain to be placed."
)
BadPlacement = _violation("BadPlacement", "bad_placement", "Placements that do not add up.")
NotSeated = _violation("NotSeated", "not_seated", "The seat does not play in this game.")
ModerationRefused = _violation(
    "ModerationRefused", "moderation_refused", "The action makes no sense in this state."
)
GamePaused = _violation("GamePaused", "game_paused", "A moderator has paused the game.")
