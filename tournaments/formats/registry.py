"""The registry itself: format key -> the format's one instance."""

from __future__ import annotations

from typing import TypeVar

from .base import TournamentFormat

FORMATS: dict[str, TournamentFormat] = {}

FormatClass = TypeVar("FormatClass", bound=type[TournamentFormat])


class UnknownFormatError(ValueError):
    """No format is registered under a key; the message lists the known ones."""


def register(format_class: FormatClass) -> FormatClass:
    """Class decorator adding a format to the registry under its key."""
    if format_class.key in FORMATS:
        raise ValueError(f"a format is already registered as {format_class.key!r}")
    FORMATS[format_class.key] = format_class()
    return format_class


def format_for(key: str) -> TournamentFormat:
    """The format registered under `key`; `UnknownFormatError` listing the known keys otherwise."""
    try:
        return FORMATS[key]
    except KeyError:
        raise UnknownFormatError(f"Unknown format {key!r}; use one of {', '.join(FORMATS)}.") from None


def format_choices() -> list[tuple[str, str]]:
    """(key, label) of every format, for model, form and API choices."""
    return [(key, fmt.label) for key, fmt in FORMATS.items()]
