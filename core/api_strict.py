"""The API takes what its schema lists, and refuses the rest with a 400 that names it.

A key or a parameter that is silently ignored tells a client that it worked: a
tournament made with `"third_place": true` at the top level (it lives in
`options`) would have no third-place match, and answer 201. So, once for every
endpoint:

- **Body keys**: `StrictInput`, the base of every input serializer, refuses a key
  that is not one of its writable fields (a read-only field sent in a body is
  refused too: it would be ignored), at every level of a nested body. A key
  that moved says where it lives now (`moved_keys`). Its schema says
  `additionalProperties: false` (`core.api_schema`).
- **Query parameters**: `ApiView`, the base of every API view, refuses a query
  parameter that the operation's schema does not list, and a second value of
  one that takes a single value. DRF's `?format=` (which renderer answers) is
  taken everywhere. The parameters are read from the generated schema itself,
  the one `/api/schema/` serves, so what is documented and what is taken cannot
  drift apart.
- **Bodies where none is taken**: an operation whose schema has no request body
  refuses one (`{}`, an object with nothing in it, is not refused: nothing in it
  is ignored). The body is read by the API's parser first, so a malformed or
  too deeply nested one is that parser's 400, and a form a 415.

Both checks run before anything else of the request (authentication, throttles,
the view): a refused request has done nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.request import Request
from rest_framework.settings import api_settings
from rest_framework.views import APIView

from .errors import Invalid


class StrictInput(serializers.Serializer):  # type: ignore[type-arg]
    """An input serializer that refuses a key it has no writable field for, naming each such key.

    `moved_keys` maps a key this input does not take to where it lives now (a
    sentence for the client); any other unknown key is told which keys are taken.
    """

    moved_keys: ClassVar[Mapping[str, str]] = {}

    def taken_keys(self) -> list[str]:
        return [name for name, field in self.fields.items() if not field.read_only]

    def to_internal_value(self, data: Any) -> Any:
        unknown: dict[str, list[str]] = {}
        if isinstance(data, Mapping):
            taken = self.taken_keys()
            for key in data:
                if key not in taken:
                    unknown[key] = [self.moved_keys.get(key) or _unknown_key(taken)]
        try:
            value = super().to_internal_value(data)
        except ValidationError as exc:
            # Say every fault at once: the unknown keys beside the fields' own errors.
            if unknown and isinstance(exc.detail, dict):
                raise ValidationError({**unknown, **exc.detail}) from None
            raise
        if unknown:
            raise ValidationError(unknown)
        return value


def _unknown_key(taken: list[str]) -> str:
    # The error names the key (`extra.fields`, and the message as `key: ...`): the sentence need not.
    if not taken:
        return "Not taken here: this object takes no keys."
    return f"Not taken here; the keys taken are {', '.join(taken)}."


@dataclass(frozen=True)
class Operation:
    """What one operation's schema lets a request carry: its query parameters (name: repeatable) and a body."""

    parameters: Mapping[str, bool]
    body: bool


#: An operation the schema does not document takes nothing.
NOTHING = Operation(parameters={}, body=False)

_lock = threading.Lock()
_operations: dict[tuple[type, str], Operation] | None = None


def operations() -> dict[tuple[type, str], Operation]:
    """Every operation of the schema, by (view class, HTTP method): made once per process, on first use.

    This is the schema `/api/schema/` serves (drf-spectacular's generator, every hook run).
    """
    global _operations  # noqa: PLW0603 - a cache of the schema, made once per process
    if _operations is None:
        with _lock:
            if _operations is None:
                _operations = _read_operations()
    return _operations


def _read_operations() -> dict[tuple[type, str], Operation]:
    # Here, not at the top: the generator reads the URLconf, which imports every view of the API.
    from drf_spectacular.generators import SchemaGenerator  # noqa: PLC0415

    generator = SchemaGenerator()  # type: ignore[no-untyped-call]
    schema = generator.get_schema(request=None, public=True)  # type: ignore[no-untyped-call]
    # drf-spectacular's endpoints are (path, path_regex, method, callback); DRF's stubs say three.
    endpoints: list[tuple[str, str, str, Any]] = list(generator.endpoints or [])  # type: ignore[arg-type]
    found: dict[tuple[type, str], Operation] = {}
    for path, _regex, method, callback in endpoints:
        operation = schema["paths"].get(path if path.startswith("/") else f"/{path}", {}).get(method.lower())
        if operation is None:
            continue
        parameters = {
            parameter["name"]: parameter.get("schema", {}).get("type") == "array"
            for parameter in operation.get("parameters", [])
            if parameter.get("in") == "query"
        }
        found[(callback.cls, method.upper())] = Operation(parameters=parameters, body="requestBody" in operation)
    return found


def operation_of(view: type, method: str) -> Operation:
    """The operation a request to `view` with `method` is (HEAD is GET's); NOTHING if undocumented."""
    method = "GET" if method.upper() == "HEAD" else method.upper()
    return operations().get((view, method), NOTHING)


def refuse_unlisted_parameters(request: Request, operation: Operation) -> None:
    """400 for a query parameter the operation does not list, or repeated where it takes one value."""
    listed = dict(operation.parameters)
    if api_settings.URL_FORMAT_OVERRIDE:
        listed.setdefault(api_settings.URL_FORMAT_OVERRIDE, False)
    faults: dict[str, list[str]] = {}
    for name, values in request.query_params.lists():
        if name not in listed:
            taken = ", ".join(sorted(listed))
            faults[name] = [f"Not a query parameter of this endpoint; it takes {taken}."]
        elif len(values) > 1 and not listed[name]:
            faults[name] = [f"Given {len(values)} times; give it once."]
    if faults:
        raise ValidationError(faults)


def _has_body(request: Request) -> bool:
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0) > 0
    except ValueError:  # refused before, by the request guard (core.middleware)
        return True


def refuse_body(request: Request) -> None:
    """400 for a body sent to an operation that takes none (after the parser's own checks: 400 or 415)."""
    if not _has_body(request):
        return
    data = request.data  # the API's parser: malformed, too deep, not JSON are refused here, as anywhere
    if data == {}:
        return
    message = "This endpoint takes no body: send none."
    if isinstance(data, Mapping):
        raise ValidationError({key: [message] for key in data})
    raise Invalid(message, extra={"body": "none taken"})


class ApiView(APIView):
    """The base of every API view: a request carrying what the operation does not take is refused first."""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        # OPTIONS is DRF's description of the endpoint, outside the schema; it acts on nothing. A method
        # the view has no handler for is its 405, as it would be without these checks.
        method = (request.method or "").lower()
        if method != "options" and method in self.http_method_names and hasattr(self, method):
            operation = operation_of(type(self), method)
            refuse_unlisted_parameters(request, operation)
            if not operation.body:
                refuse_body(request)
        super().initial(request, *args, **kwargs)
