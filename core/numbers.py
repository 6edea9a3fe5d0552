"""The one parser of whole numbers typed by people and clients: forms, query strings, API bodies.

Every whole number the site or the API reads goes through `whole_number`:

- ASCII digits only, with a leading `-` where the range allows negatives (a JSON body's
  numbers are JSON integers, which the parser read).
  `str.isdigit()` also accepts `²` and `①` (which `int()` refuses: a 500), and
  `int()` accepts other scripts' digits (`١٢`) and underscores (`1_000`); none
  of them is a number anyone here means, so all are refused alike.
- Bounded: by what the column holds (`column_range`, from the model field, the
  same on every database: SQLite would store anything, PostgreSQL would refuse
  with a 500), or by a range the caller gives. A number is refused, never
  wrapped or clamped.
- A clear error (`NumberError`, a `ValueError`) saying what was expected.

`WholeNumberField` (a form field) and `WholeNumberSerializerField` (a DRF field)
are the two ways a form or a serializer adopts it; `query_whole` reads one from a
query string.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.backends.base.operations import BaseDatabaseOperations
from django.http import QueryDict
from rest_framework import serializers

from .errors import Invalid


class NumberError(ValueError):
    """A text that is not a whole number in range; the message says what was expected."""


def range_words(low: int | None, high: int | None) -> str:
    """ "from 1 to 99", "at least 0", "at most 5", or "" for no bound."""
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}"
    if high is not None:
        return f"at most {high}"
    return ""


def _expected(low: int | None, high: int | None) -> str:
    bounds = range_words(low, high)
    return f"a whole number{' ' + bounds if bounds else ''}"


def is_ascii_whole(text: str) -> bool:
    """Only ASCII digits, at least one (what `str.isdigit()` means to say)."""
    return text.isascii() and text.isdigit()


def whole_number(text: str, *, low: int | None = 0, high: int | None = None) -> int:
    """`text` as a whole number from `low` to `high` (inclusive; None: unbounded), or `NumberError`.

    Surrounding spaces are allowed; nothing else but ASCII digits and one leading minus sign."""
    stripped = text.strip()
    digits = stripped[1:] if stripped.startswith("-") else stripped
    if not is_ascii_whole(digits):
        raise NumberError(f"Enter {_expected(low, high)} in the digits 0-9, not {text[:40]!r}.")
    # Far more digits than any bound needs: refused before int() spends time on them.
    longest = max(len(str(bound)) for bound in (low, high, 2**63) if bound is not None)
    if len(digits) > longest + 1:
        raise NumberError(f"Enter {_expected(low, high)}; {digits[:12]}… has {len(digits)} digits.")
    value = int(stripped)
    if (low is not None and value < low) or (high is not None and value > high):
        raise NumberError(f"Enter {_expected(low, high)}, not {value}.")
    return value


def column_range(model: type[models.Model], field_name: str) -> tuple[int, int]:
    """What an integer column holds: its type's range (as PostgreSQL has it, whatever the database),
    narrowed by the field's own min/max validators."""
    field = model._meta.get_field(field_name)
    if not isinstance(field, models.Field):
        raise TypeError(f"{model.__name__}.{field_name} is not a column.")
    internal = field.get_internal_type()
    if internal not in BaseDatabaseOperations.integer_field_ranges:
        raise TypeError(f"{model.__name__}.{field_name} is not an integer column ({internal}).")
    low, high = BaseDatabaseOperations.integer_field_ranges[internal]
    for validator in field.validators:
        if isinstance(validator, MinValueValidator):
            low = max(low, int(validator.limit_value))
        elif isinstance(validator, MaxValueValidator):
            high = min(high, int(validator.limit_value))
    return low, high


def _bounds(column: tuple[type[models.Model], str] | None, low: int | None, high: int | None) -> tuple[int, int]:
    """The bounds given, within the column's where one is named (a caller may narrow, never widen).

    A field must end up with both: an unbounded number would reach a column."""
    if column is not None:
        column_low, column_high = column_range(*column)
        low = column_low if low is None else max(low, column_low)
        high = column_high if high is None else min(high, column_high)
    if low is None or high is None:
        raise TypeError("A whole-number field needs both bounds, or a column to take them from.")
    return low, high


class WholeNumberField(forms.IntegerField):
    """A form's whole number: `whole_number`'s parsing, bounded by `min_value`/`max_value` and by `column`
    (`(Model, "field")`) when given. Both bounds must exist: an unbounded number would reach a column."""

    def __init__(
        self,
        *,
        column: tuple[type[models.Model], str] | None = None,
        min_value: int | None = None,
        max_value: int | None = None,
        **kwargs: Any,
    ) -> None:
        low, high = _bounds(column, min_value, max_value)
        super().__init__(min_value=low, max_value=high, **kwargs)

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        try:
            return whole_number(str(value), low=self.min_value, high=self.max_value)
        except NumberError as exc:
            raise forms.ValidationError(str(exc), code="invalid") from None


class WholeNumberSerializerField(serializers.IntegerField):
    """The API's whole number: a JSON integer, as the schema says (not a float, a boolean or a string:
    DRF's own field takes `3.0`, `"3"` and `"٣"`), bounded by `min_value`/`max_value` and by `column`
    (`(Model, "field")`) when given."""

    default_error_messages = {
        "invalid": "A whole number (a JSON integer) is required.",
    }

    def __init__(
        self,
        *,
        column: tuple[type[models.Model], str] | None = None,
        min_value: int | None = None,
        max_value: int | None = None,
        **kwargs: Any,
    ) -> None:
        low, high = _bounds(column, min_value, max_value)
        super().__init__(min_value=low, max_value=high, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return int(data)


def query_whole(params: QueryDict, name: str, *, default: int, low: int, high: int) -> int:
    """A whole number from a query string (`default` when absent), or `NumberError`.

    Present but empty is an error too: the schema says integer, and "" is not one."""
    raw = params.get(name)
    return default if raw is None else whole_number(raw, low=low, high=high)


def query_filter_whole(params: QueryDict, name: str, *, low: int, high: int) -> int | None:
    """An optional whole-number filter of a list (`?round=2`): None when absent, else the number, or `Invalid`
    naming the parameter (a 400)."""
    raw = params.get(name)
    if raw is None:
        return None
    try:
        return whole_number(raw, low=low, high=high)
    except NumberError as exc:
        raise Invalid(f"`{name}`: {exc}", extra={"field": name}) from None
