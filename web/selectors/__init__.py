"""The pages' reads, one module per area of pages.

The rule: every query a page makes is built here, on the apps' selectors (or their models where the
apps offer no read yet), each function a fixed number of queries; a view calls an app's selector
itself only for a read it offers whole (a tournament by its id, the signed-in user's player).
Views, forms, template tags, presenters and drawing never touch the ORM (no `.objects`, no filters
of their own): they evaluate, count or slice what a selector hands them. A selector may shape what it returns with the pure presenters
and drawing (names in words, a bracket's layout, both cached), never the other way round;
`tests/web/test_layout.py` and the import-linter contract on `web` hold that.

- `navigation`: what every page's navigation shows the signed-in user;
- `home`: the home page's lists; `tournaments`: the tournament lists, pairing names, registrations;
  `tournament_page`: a tournament's page, a bounded part at a time, through its cache (the names it
  reads there: `tournament_cache_names`);
- `matches`: seats and the pairing a match is played for; `viewer`: what the viewer may do at a match;
- `logs`: logs for their pages and replays, what a user may submit for;
- `players`: the players' pages; `mine`: a signed-in player's own page and what waits on them;
- `desk`: the organiser's queue and the navigation's count of what waits on organisers;
- `lobby`: the play page's open games and live tables; `live`: the versions live pages poll; `tokens`: the API token page's token; `entry`: a tournament's entry rules and round times on its page;
- `calendars`: round times and what a player's feed lists; `exports`: a tournament's CSV and logs.
"""
