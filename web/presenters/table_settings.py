"""A tournament's own times at the tables in words for its page (speed-table/1 amendment L5), pure (no queries)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def duration_words(seconds: int) -> str:
    """ "45 s", "2 min", "1 min 30 s"."""
    minutes, rest = divmod(seconds, 60)
    if not minutes:
        return f"{rest} s"
    return f"{minutes} min" + (f" {rest} s" if rest else "")


def table_settings_words(stored: Mapping[str, Any], *, site: Mapping[str, Any]) -> str | None:
    """ "At the tables: a player away 30 s can be claimed against; …; a no-show forfeits after 2 min.", with the
    site's times (`site`: milliseconds) where the organiser set none; None when they set nothing."""
    if not stored:
        return None
    claim = stored.get("claim_seconds", int(site["claim_ms"]) // 1000)
    abandon = stored.get("abandon_seconds", int(site["abandon_ms"]) // 1000)
    no_show = stored.get("no_show_seconds")
    return (
        f"At the tables: a player away {duration_words(claim)} can be claimed against; a table everyone has left "
        f"is abandoned after {duration_words(abandon)}, and one nobody readied is aborted after as long; "
        + (
            f"a no-show at a called match's table forfeits after {duration_words(no_show)}."
            if no_show is not None
            else "a no-show counts for nothing."
        )
    )
