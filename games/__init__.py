"""Games: seats, the event store and the one write path that applies the rules engine."""
