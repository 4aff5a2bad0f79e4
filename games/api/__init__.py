"""The JSON API of CONTRACT.md (/api/v1/): thin views over games.service."""
