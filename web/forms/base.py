"""What every form of the site shares: a service's errors shown by the field they name, and times read in the
reader's zone."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms
from django.utils import timezone


class ServiceErrors(forms.Form):
    """A form a service's errors come back to, each shown by the field it names (`Invalid.extra["field"]`)."""

    #: A service's field name -> this form's field, where they differ.
    SERVICE_FIELDS: ClassVar[dict[str, str]] = {}

    def add_service_error(self, field: str | None, message: str) -> None:
        """By the field the service named, or above the form when it named none of this form's."""
        name = self.SERVICE_FIELDS.get(field or "", field)
        self.add_error(name if name in self.fields else None, message)


class LocalTimes(forms.Form):
    """A form whose date-and-time boxes say the zone they are read in.

    Django's `DateTimeField` already reads what is typed in the active zone (the
    reader's: `web.middleware.TimeZoneMiddleware`) and shows a stored time in it;
    a time the zone skips or repeats (a DST change) is refused with a message. What
    is left is to say which zone, since a `datetime-local` box shows none.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        said = f"Times are in your time zone, {timezone.get_current_timezone_name()}."
        for field in self.fields.values():
            if isinstance(field, forms.DateTimeField):
                field.help_text = f"{said} {field.help_text}".strip()
