"""Moderation: game chat, reports, the moderators' pages and the admin."""
