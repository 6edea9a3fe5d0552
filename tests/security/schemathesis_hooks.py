"""A Schemathesis check for the Speed API, loaded by test_schemathesis.py (SCHEMATHESIS_HOOKS).

Writes may answer a schema-valid body 400 when it breaks a rule of the game or the
event (schemathesis.toml); this check keeps that from hiding a schema that promises
too much: a 400 from the input serializers (the project's error shape with
`extra.fields`) to a schema-valid request means the schema let through a shape the
API refuses.
"""

from __future__ import annotations

from typing import Any

import schemathesis


@schemathesis.check
def schema_valid_bodies_pass_the_serializers(ctx: Any, response: Any, case: Any) -> bool | None:
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    try:
        body = response.json()
    except ValueError:
        return None  # not the project's error shape: the built-in checks judge it
    extra = body.get("extra") if isinstance(body, dict) else None
    if isinstance(extra, dict) and extra.get("fields"):
        raise AssertionError(f"A schema-valid request was refused for its shape: {body.get('message')}")
    return None
