"""Plumbing any app may use: SQL helpers, strict input parsing, the admin and API kits,
publishing tasks after commit. Nothing here imports an app."""
