"""Creating many matches at once: a tournament's round, in a fixed number of statements.

`match_create` makes one match (a lookup of the handles, two INSERTs); a
4,096-entrant bracket's first round is 2,048 of them, about six seconds of
round trips. `match_create_bulk` checks and resolves what the matches share
(the creator's right, the ruleset, the series) once, and inserts every match,
then every first game, in one statement each. Each row gets the fields
`match_create` gives it: keep the two in step.
"""

from __future__ import annotations

from collections.abc import Sequence

import orjson
from django.db import transaction

from core.errors import Invalid
from core.site_cache import site_lists_changed

from ..models import Match, Player
from ..selectors import AnyUser
from .matches import creator_check, match_settings_resolve
from .result_writer import games_open


@transaction.atomic
def match_create_bulk(
    *,
    pairs: Sequence[tuple[Player, Player]],
    ruleset: object = "speed",
    best_of: int | None = None,
    first_to: int | None = None,
    created_by: AnyUser = None,
    confirmation: str = Match.Confirmation.OPPONENT,
    confirm_within: int | None = None,
    time_limit_ms: int | None = None,
) -> list[Match]:
    """A match for each pair of (saved) players, each with its first game open, in the pairs' order.

    The rules of `match_create`: two different players a match, organisers
    (or the site itself) create them; the options are
    the same and apply to every match. Nothing is created unless all pass.
    """
    if any(one.pk is None or two.pk is None or one.pk == two.pk for one, two in pairs):
        raise Invalid("A match needs exactly two different players.", extra={"field": "players"})
    creator_check(created_by=created_by, seated=[])
    # As match_create resolves them for two players (two seats never make teams).
    settings = match_settings_resolve(
        seats=2, ruleset=ruleset, best_of=best_of, first_to=first_to, time_limit_ms=time_limit_ms
    )
    if not pairs:
        return []
    creator = created_by if created_by is not None and created_by.is_authenticated else None
    # Each row gets a dict of its own, as from match_create; decoding one serialised copy
    # per row costs less than `to_json` (dataclasses.asdict) per row.
    ruleset_json = orjson.dumps(settings.ruleset.to_json())
    matches = Match.objects.bulk_create(
        Match(
            player_one=one,
            player_two=two,
            player_three=None,
            player_four=None,
            points_per_place=None,  # two players count games won
            time_limit_ms=settings.time_limit_ms,  # a timed tournament's rounds
            ruleset=orjson.loads(ruleset_json),
            ruleset_name=settings.ruleset_name,
            series=settings.series,
            series_length=settings.series_length,
            confirmation=confirmation,
            confirm_within=confirm_within,
            created_by=creator,
        )
        for one, two in pairs
    )
    games_open(games=((match, 1) for match in matches))
    site_lists_changed()
    return matches
