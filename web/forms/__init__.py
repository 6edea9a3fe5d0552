"""The site's forms: `site` (logs, tournaments and entrants, sign-up, scores and corrections), `match` (a new
match's seats and rules), `result` (a game's result), `points` (points per place and time limits as typed)."""
