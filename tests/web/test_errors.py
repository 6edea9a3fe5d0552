"""The site maps an uncaught domain error to a page with the API's status, in one place."""

import pytest
from django.test import RequestFactory

from speedsite.errors import ApplicationError, Conflict, NotAllowed, NotFound, TooLarge
from web.errors import DomainErrorMiddleware


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (ApplicationError("bad"), 400),
        (NotFound("no such thing"), 404),
        (NotAllowed("not yours"), 403),
        (Conflict("already started"), 409),
        (TooLarge("too big"), 413),
    ],
)
def test_a_domain_error_becomes_a_page_with_its_status(error: ApplicationError, status: int) -> None:
    middleware = DomainErrorMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]
    request = RequestFactory().get("/")
    response = middleware.process_exception(request, error)
    assert response is not None
    assert response.status_code == status
    assert error.message in response.content.decode()


def test_other_exceptions_pass_through() -> None:
    middleware = DomainErrorMiddleware(lambda request: None)  # type: ignore[arg-type, return-value]
    assert middleware.process_exception(RequestFactory().get("/"), ValueError("a bug")) is None
