"""The API's pagination: `?limit=&offset=`, bounded so a huge number is a 400, not a database error."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiParameter, inline_serializer
from rest_framework import serializers
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.serializers import Serializer

from core.numbers import NumberError, query_whole

#: Beyond this an offset cannot point into any table here; PostgreSQL's OFFSET is a 64-bit integer.
MAX_OFFSET = 2**31 - 1


class Pagination(LimitOffsetPagination):
    default_limit = 50
    max_limit = 500

    def _number(self, request: Request, name: str, default: int, maximum: int) -> int:
        # Present but empty is refused like any other non-number: the schema says integer.
        try:
            return query_whole(request.query_params, name, default=default, low=0, high=maximum)
        except NumberError as exc:
            raise ValidationError({name: [str(exc)]}) from None

    def get_limit(self, request: Request) -> int | None:
        limit = self._number(request, self.limit_query_param, self.default_limit, self.max_limit)
        return self.default_limit if limit == 0 else limit

    def get_offset(self, request: Request) -> int:
        return self._number(request, self.offset_query_param, 0, MAX_OFFSET)

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        bounds = {
            self.limit_query_param: {"minimum": 0, "maximum": self.max_limit},
            self.offset_query_param: {"minimum": 0, "maximum": MAX_OFFSET},
        }
        for parameter in parameters:
            parameter["schema"].update(bounds.get(parameter["name"], {}))
        return parameters


def paginated(serializer_class: type[Serializer], name: str | None = None) -> Serializer:
    """The schema of one page of `serializer_class` items: what a list endpoint really answers."""
    item = serializer_class.__name__.removesuffix("Output")
    return inline_serializer(
        name=name or f"Paginated{item}List",
        fields={
            "count": serializers.IntegerField(),
            "next": serializers.URLField(allow_null=True),
            "previous": serializers.URLField(allow_null=True),
            "results": serializer_class(many=True),
        },
    )


#: The `limit` and `offset` query parameters of every list endpoint, with their bounds.
PAGE_PARAMETERS = [
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 0, "maximum": Pagination.max_limit},
        description=f"Items per page (default {Pagination.default_limit}).",
    ),
    OpenApiParameter("offset", {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET}, description="Items to skip."),
]
