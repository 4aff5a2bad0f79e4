"""How events, rules and refusals read in each language: pure words over the engine's facts
(Django's translation only; nothing of the game's storage)."""
