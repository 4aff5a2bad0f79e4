"""Tournaments: sign-up, fair draws, rounds of ordinary games, standings and brackets."""
