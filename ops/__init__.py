"""Operating the service: health and readiness, database outages, periodic jobs' heartbeats."""
