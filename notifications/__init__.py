"""Notifications: the mail outbox, mail rendering, delivery and deadline tasks."""
