"""What the OpenAPI schema says about every operation that no single view knows.

Every error answer has the project's one shape (`core.api_errors`), and
which statuses an operation can answer follows from how the API is built, so
a postprocessing hook writes them once, from each operation's view, instead of
each view repeating them:

- 400 anywhere: a malformed query or body (a NUL byte, a bad number, an unknown enum value), a
  query parameter the operation does not list, a body key it does not take, or a body where it
  takes none (`core.api_strict`);
- 401 wherever the view authenticates, reads too: a token that is wrong, expired or revoked is
  refused even where no credentials are needed;
- 403, 409 on every change the view authenticates (not allowed, a CSRF check, clashes with the
  current state); 409 on every other change;
- 404 where the path names something that may not exist;
- 406 anywhere: an `Accept` header naming nothing the API answers in;
- 413 anywhere: a body declared larger than `SPEED_REQUEST_MAX_BYTES` (`core.middleware`);
- 415 on every operation with a body: the API parses JSON only (a form cannot say `null`, a list
  of one, or a number rather than a string, so a form-encoded body would mean something else);
- 429 on every change (login throttles, log quotas) and wherever the view throttles;
- 503 anywhere: the database or Redis is unavailable (`extra.code`: `database_unavailable`,
  `redis_unavailable`; core.handlers), and on a change also a lock it needs was held
  elsewhere too long (nothing was done; try again after `Retry-After`).

Reads are public by design: their security lists the empty requirement `{}`.
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.openapi import AutoSchema as SpectacularAutoSchema
from drf_spectacular.utils import inline_serializer
from rest_framework import serializers

from .api_fields import DistinctListField
from .api_strict import StrictInput

ERROR_SHAPE = inline_serializer(
    "Error",
    {
        "message": serializers.CharField(help_text="What went wrong, for a person."),
        "extra": serializers.DictField(help_text="Details: the fields at fault, limits, expected values."),
    },
)

_ERROR_REF = {"$ref": "#/components/schemas/Error"}
_ERROR_SCHEMA = {
    "type": "object",
    "properties": {
        "message": {"type": "string", "description": "What went wrong, for a person."},
        "extra": {
            "type": "object",
            "additionalProperties": {},
            "description": "Details: the fields at fault, limits, expected values.",
        },
    },
    "required": ["message", "extra"],
}
_DESCRIPTIONS = {
    "400": (
        "Malformed or invalid input, or not allowed by the rules in this state; also a query parameter this "
        "operation does not list, a body key it does not take (`extra.fields` names each), or a body where it "
        "takes none."
    ),
    "401": "No valid credentials: none where they are needed, or a token that is wrong, expired or revoked.",
    "403": "Not allowed for this user.",
    "404": "Not found.",
    "406": "The `Accept` header names nothing this operation answers in.",
    "409": "Clashes with the current state (already started, being changed right now).",
    "413": "The body is larger than the limit.",
    "415": "The body is not JSON (`Content-Type: application/json`).",
    "429": "Too many requests or over a quota; try again later.",
    "503": (
        "Unavailable for a moment, try again after `Retry-After` seconds: the database or Redis is down "
        "(`extra.code` is `database_unavailable` or `redis_unavailable`), or what this changes is being "
        "changed elsewhere right now (busy; nothing was done)."
    ),
}
_WRITES = {"post", "put", "patch", "delete"}


_RETRY_AFTER = {
    "Retry-After": {"description": "Seconds to wait before sending the request again.", "schema": {"type": "integer"}}
}


def _error(status: str) -> dict[str, Any]:
    documented: dict[str, Any] = {
        "description": _DESCRIPTIONS[status],
        "content": {"application/json": {"schema": _ERROR_REF}},
    }
    if status == "503":
        documented["headers"] = _RETRY_AFTER
    return documented


def _views(generator: Any) -> dict[tuple[str, str], Any]:
    """Each operation's view class, by (path, method), from the endpoints the generator read."""
    # drf-spectacular's endpoints are (path, path_regex, method, callback).
    return {
        (path if path.startswith("/") else f"/{path}", method.lower()): callback.cls
        for path, _regex, method, callback in getattr(generator, "endpoints", None) or []
    }


def _statuses(path: str, method: str, operation: dict[str, Any], view: Any) -> list[str]:
    """The error statuses an operation can answer, from its path, its method, its body and its view."""
    statuses = ["400", "406", "413", "503"]
    authenticates = view is None or bool(view.authentication_classes)
    throttles = view is not None and bool(view.throttle_classes)
    if authenticates:
        statuses.append("401")
    if "{" in path:
        statuses.append("404")
    if method in _WRITES:
        statuses += ["403", "409"] if authenticates else ["409"]
    if method in _WRITES or throttles:
        statuses.append("429")
    if "requestBody" in operation:
        statuses.append("415")
    return sorted(statuses)


def document_errors(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """Postprocessing hook: the error statuses of every operation, and public reads."""
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = _ERROR_SCHEMA
    views = _views(generator)
    for path, operations in result.get("paths", {}).items():
        for method, operation in operations.items():
            if method not in _WRITES and method not in {"get", "head"}:
                continue
            responses = operation.setdefault("responses", {})
            for status in _statuses(path, method, operation, views.get((path, method))):
                # A view's own description of an error says more; keep it and add the shape.
                documented = responses.setdefault(status, _error(status))
                documented.setdefault("content", {"application/json": {"schema": _ERROR_REF}})
            for documented_status, documented in responses.items():
                if documented_status in _DESCRIPTIONS:
                    documented.setdefault("content", {"application/json": {"schema": _ERROR_REF}})
            if method not in _WRITES:
                security = operation.setdefault("security", [])
                if {} not in security:
                    security.append({})
    return result


#: Some character that is not whitespace: what a non-blank input string must contain. Whitespace is
#: what Python's `str.strip` takes off (DRF trims with it), which is not JSON Schema's (ECMA) `\s`:
#: Python's also has U+001C to U+001F and U+0085, and ECMA's also U+FEFF, which stays. The pattern
#: means the same in both dialects, so a client's validator and the server agree.
NON_BLANK_PATTERN = r"[^\s\x1c-\x1f\x85]|\ufeff"


def _refine(schema: dict[str, Any], refinement: dict[str, Any]) -> None:
    """Merge a serializer's refinement into its request schema: each field's keys into its own."""
    for name, keys in refinement.get("properties", {}).items():
        schema["properties"][name].update(keys)
    schema.update({key: value for key, value in refinement.items() if key != "properties"})


def exactly_one_of(first: str, second: str) -> dict[str, Any]:
    """A refinement: of two nullable whole numbers, exactly one is given (the other left out or null).

    `oneOf` counts the branches that hold: "this one is given" holds for one key only.
    """
    return {"oneOf": [{"required": [name], "properties": {name: {"type": "integer"}}} for name in (first, second)]}


class AutoSchema(SpectacularAutoSchema):
    """drf-spectacular's schema, with the truths it leaves out.

    - A read-only field is required in drf-spectacular's output schemas; a serializer
      that leaves a key out of some answers lists it in `schema_optional_fields`.
    - An input string that may not be blank (DRF's `allow_blank=False`, the default)
      is refused when empty, or when only whitespace if the field trims it, so the
      request schema says `minLength: 1` and, for a trimmed field, a pattern that
      asks for one character that is not whitespace (`NON_BLANK_PATTERN`).
      (drf-spectacular's ENFORCE_NON_BLANK_FIELDS would also mark output fields,
      which promise nothing of the kind.)
    - A `DistinctListField` refuses repeated items: `uniqueItems`.
    - A `StrictInput` refuses a key it does not take: `additionalProperties: false`.
    - A rule between an input's fields that its services enforce (exactly one of two keys, a
      list's length that follows a name) is stated by the serializer's `request_schema_refinement()`:
      JSON Schema merged into its request schema (`properties` field by field).
    """

    def _map_serializer_field(self, field: Any, direction: str, bypass_extensions: bool = False) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_serializer_field(field, direction, bypass_extensions)
        if (
            direction == "request"
            and isinstance(field, serializers.CharField)
            and not field.allow_blank
            and not field.read_only
            and schema.get("type") == "string"
        ):
            schema["minLength"] = max(schema.get("minLength", 0), 1)
            if field.trim_whitespace:
                schema.setdefault("pattern", NON_BLANK_PATTERN)
        if isinstance(field, DistinctListField):
            schema["uniqueItems"] = True
        return schema

    def _map_basic_serializer(self, serializer: Any, direction: str) -> dict[str, Any]:
        schema: dict[str, Any] = super()._map_basic_serializer(serializer, direction)
        if direction == "request" and isinstance(serializer, StrictInput):
            schema["additionalProperties"] = False
            refine = getattr(serializer, "request_schema_refinement", None)
            if refine is not None:
                _refine(schema, refine())
        optional = set(getattr(serializer, "schema_optional_fields", ()))
        if optional and "required" in schema:
            schema["required"] = [name for name in schema["required"] if name not in optional]
            if not schema["required"]:
                del schema["required"]
        return schema
