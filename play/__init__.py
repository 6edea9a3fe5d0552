"""Live play at a table the server referees (speed-table/1): tables, their events, the socket."""
