"""The game core: the event log, the one front door every change comes through, the clock,
and what each seat may see. Its modules, each by its layer (a layer imports only those below):

- service: submit() and commit(), the front door (checks in a fixed order, then the engine),
  and the Committed value it hands to the reactions config/reactions.py declares;
- append: the only write, events and the game's row in one statement (VersionConflict on a
  race);
- states: a game's state rebuilt from its log, with snapshots and a per-process copy;
- log: reading the stored events (upcast to the current schema);
- rows: the game's row with its seats in one query, as one value (Loaded, whose seats are
  seating's Seats), and the seats of a game or of many alone;
- seating, seat_views, visibility: who sits where (Seats, a value handed along, never kept
  on the Game), what a seat may see, who may know of a game at all; clock, absences,
  standing_orders, computer, moderation: the deadlines, stretched clocks, standing orders,
  computer players' turns and moderators' events.
"""
