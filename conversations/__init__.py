"""Private messages between players: conversations, blocking, and reports to moderators."""
