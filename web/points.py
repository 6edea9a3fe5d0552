"""Points per place as a person types them ("3-1-0-0"), for the new-match and new-tournament forms."""

from __future__ import annotations

import re
from typing import Any

from django import forms


def points_parse(text: str) -> list[int] | None:
    """Whole numbers separated by dashes, commas, slashes or spaces; None when empty (the defaults).

    Only the shape is checked here: the match rules (`points_resolve`) say what a table's points may be."""
    parts = [part for part in re.split(r"[\s,;/-]+", text.strip()) if part]
    if not parts:
        return None
    if not all(part.isdigit() for part in parts):
        raise forms.ValidationError("Whole numbers, best place first, e.g. 3-1-0-0.")
    return [int(part) for part in parts]


class PointsField(forms.CharField):
    """A table's points per place: a list of numbers, best place first, or None."""

    def to_python(self, value: Any) -> list[int] | None:  # type: ignore[override]
        return points_parse(super().to_python(value) or "")
