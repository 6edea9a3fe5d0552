"""The site's forms, one module per area: `logs` (submitting a log), `tournament` (a new tournament and its
format's options), `organise` (entrants, seeds, scores, calls, corrections), `accounts` (sign-up), `match` (a new
match's seats and rules), `result` (a game's result), `points` (points per place and time limits as typed), and
`base` (a service's errors shown by their field)."""
