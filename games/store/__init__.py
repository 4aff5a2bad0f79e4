"""The game store: a game's row and seats read as one value (row, seats), its state rebuilt from
its log (states, log), and the one write, appending a command's events (append)."""
