"""Ratings, player records and tournaments: projections of the finished games' event logs."""
