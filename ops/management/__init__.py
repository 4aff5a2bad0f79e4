"""Management commands of ops."""
