"""Points per place as a person types them ("3-1-0-0"), for the new-match and new-tournament forms."""

from __future__ import annotations

import re
from typing import Any

from django import forms

from core.numbers import NumberError, WholeNumberField, whole_number
from matches.services.matches import MAX_POINTS_PER_PLACE, TIME_LIMIT_RANGE_MS


def points_parse(text: str) -> list[int] | None:
    """Whole numbers separated by dashes, commas, slashes or spaces; None when empty (the defaults).

    Only the shape is checked here: the match rules (`points_resolve`) say what a table's points may be."""
    parts = [part for part in re.split(r"[\s,;/-]+", text.strip()) if part]
    if not parts:
        return None
    try:
        return [whole_number(part, low=0, high=MAX_POINTS_PER_PLACE) for part in parts]
    except NumberError:
        raise forms.ValidationError(
            f"Whole numbers from 0 to {MAX_POINTS_PER_PLACE} in the digits 0-9, best place first, e.g. 3-1-0-0."
        ) from None


class PointsField(forms.CharField):
    """A table's points per place: a list of numbers, best place first, or None."""

    def to_python(self, value: Any) -> list[int] | None:  # type: ignore[override]
        return points_parse(super().to_python(value) or "")


def points_input(*, label: str, help_text: str, placeholder: str) -> PointsField:
    """An optional points-per-place box as both forms show it ("3-1-0-0")."""
    return PointsField(
        required=False,
        max_length=40,
        label=label,
        help_text=help_text,
        widget=forms.TextInput(attrs={"placeholder": placeholder, "inputmode": "numeric"}),
    )


def time_limit_input(*, label: str, help_text: str) -> WholeNumberField:
    """An optional timed round's limit in whole seconds, within the range the services accept."""
    low, high = TIME_LIMIT_RANGE_MS
    return WholeNumberField(
        required=False, min_value=low // 1000, max_value=high // 1000, label=label, help_text=help_text
    )
