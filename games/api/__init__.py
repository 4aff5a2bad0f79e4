"""The JSON API of docs/bots/contract.md (/api/v1/): thin views over games.service."""
