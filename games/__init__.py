"""The game core: the event log, the one front door every change comes through, the clock,
and what each seat may see. Its modules, each by its layer (a layer imports only those below):

- service: submit() and commit(), the front door (checks in a fixed order, then the engine),
  and the Committed value it hands to the reactions config/reactions.py declares;
- store (games.store): append, the only write, events and the game's row in one statement
  (VersionConflict on a race); states, a game's state rebuilt from its log, with snapshots
  and a per-process copy; log, reading the stored events (upcast to the current schema);
  row, the game's row with its seats in one query, as one value (Loaded), its options and
  dice; seats, who sits where (Seats, a value handed along, never kept on the Game), read
  with the row or alone (read_seats, seats_of_games);
- seat_views, visibility: what a seat may see, who may know of a game at all; clock,
  deadlines, vacation_clock, standing_orders, computer, moderation: the deadlines, the clock
  stretched for a vacation, standing orders, computer players' turns and moderators' events.
"""
