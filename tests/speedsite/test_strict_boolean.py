"""A boolean in the API is a JSON boolean: what the schema says, and nothing DRF would also take."""

from __future__ import annotations

import pytest
from rest_framework import serializers

from core.api_fields import StrictBooleanField


class _Body(serializers.Serializer):  # type: ignore[type-arg]
    flag = StrictBooleanField()


@pytest.mark.parametrize("value", [True, False])
def test_a_json_boolean_is_taken(value: bool) -> None:
    body = _Body(data={"flag": value})
    assert body.is_valid(), body.errors
    assert body.validated_data["flag"] is value


@pytest.mark.parametrize("value", [0, 1, "true", "yes", "on", "1", None, 1.0])
def test_anything_else_is_refused(value: object) -> None:
    body = _Body(data={"flag": value})
    assert not body.is_valid()
    assert "flag" in body.errors
