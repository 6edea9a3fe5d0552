"""The format registry: one registration per format, looked up by key; an unknown key is a clear error."""

from __future__ import annotations

import pytest

from tournaments.formats import FORMATS, TournamentFormat, UnknownFormatError, format_for, register
from tournaments.models import Tournament
from tournaments.standings import metric_for


def test_every_named_format_is_registered_with_its_label() -> None:
    assert [(key, fmt.label) for key, fmt in FORMATS.items()] == list(Tournament.Format.choices)


def test_an_unknown_key_names_the_known_ones() -> None:
    with pytest.raises(UnknownFormatError, match="Unknown format 'knockout'; use one of single_elimination, "):
        format_for("knockout")


def test_a_key_registers_once() -> None:
    with pytest.raises(ValueError, match="already registered as 'swiss'"):

        @register
        class Again(type(format_for("swiss"))):  # type: ignore[misc]
            pass


@pytest.mark.parametrize("key", list(FORMATS))
def test_defaults_name_known_metrics_and_model_fields(key: str) -> None:
    fmt: TournamentFormat = format_for(key)
    assert fmt.key == key
    assert [metric_for(metric).key for metric in fmt.default_tie_breaks] == list(fmt.default_tie_breaks)
    # Its options' defaults are valid options, stored and read back as they are.
    defaults = fmt.options.clean({}, time_limit_ms=None, owner=fmt.label)
    assert fmt.options.of(Tournament(options=defaults.to_json())) == defaults
    assert set(fmt.options.specs()) == set(defaults.to_json())
