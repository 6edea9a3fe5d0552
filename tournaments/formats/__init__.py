"""Tournament formats: a registry of format classes keyed by `Tournament.format`.

Adding a format is one module with one `@register`ed `TournamentFormat`
subclass (imported below so it registers). Everything that differs between
formats (validating a start, pairing, advancing, planning a correction,
default tie-breaks, how byes count, what the page draws) is asked of the
format returned by `format_for`; nothing else compares format keys.
"""

from .base import GroupTable, PairingResult, TournamentFormat
from .registry import FORMATS, UnknownFormatError, format_choices, format_for, register

# Imported for their registrations, in the order the forms and the API list them.
from . import elimination, round_robin, swiss, winner_stays_on, groups, tables  # noqa: F401  isort: skip

__all__ = [
    "FORMATS",
    "GroupTable",
    "PairingResult",
    "TournamentFormat",
    "UnknownFormatError",
    "format_choices",
    "format_for",
    "register",
]
