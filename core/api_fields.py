"""Input fields that accept exactly what the OpenAPI schema says they accept.

DRF's `CharField` turns a number into a string (`{"handle": 0}` makes the handle
"0"), so a body the schema calls invalid (a number where it says string) would be
accepted; the API's clients, and the fuzzer, take the schema at its word.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers


class StrictCharField(serializers.CharField):
    """A `CharField` that refuses anything but a JSON string (a number, a boolean) with a 400."""

    default_error_messages = {"invalid": "Not a string."}

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)  # type: ignore[no-any-return]


class StrictBooleanField(serializers.BooleanField):
    """A JSON boolean and nothing else: DRF's own field also takes 0, 1, "yes" and "on", which the
    schema (`type: boolean`) refuses, so a client's validator and the server would disagree."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class DistinctListField(serializers.ListField):
    """A list that may not repeat an item: refused with a 400, and `uniqueItems` in the schema (api_schema)."""

    default_error_messages = {"repeated": "Give each item once."}

    def to_internal_value(self, data: Any) -> list[Any]:
        items: list[Any] = super().to_internal_value(data)
        if len({repr(item) for item in items}) != len(items):
            self.fail("repeated")
        return items


@extend_schema_field({"oneOf": [{"type": "string"}, {"type": "object", "additionalProperties": {}}]})
class NameOrObjectField(serializers.JSONField):
    """A JSON string (a preset's name) or an object (the thing itself); the service judges either.

    DRF's `JSONField` has no schema type, which tells clients that null, numbers and
    lists would do; the API refuses them.
    """
