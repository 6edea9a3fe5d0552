"""What every form of the site shares: a service's errors shown by the field they name."""

from __future__ import annotations

from typing import ClassVar

from django import forms


class ServiceErrors(forms.Form):
    """A form a service's errors come back to, each shown by the field it names (`Invalid.extra["field"]`)."""

    #: A service's field name -> this form's field, where they differ.
    SERVICE_FIELDS: ClassVar[dict[str, str]] = {}

    def add_service_error(self, field: str | None, message: str) -> None:
        """By the field the service named, or above the form when it named none of this form's."""
        name = self.SERVICE_FIELDS.get(field or "", field)
        self.add_error(name if name in self.fields else None, message)
