"""The site maps an uncaught domain error to a page with the API's status, in one place."""

import pytest
from django.test import Client, RequestFactory

from core.errors import ApplicationError, Conflict, NotAllowed, NotFound, TooLarge
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


class TestErrorPagePreviews:
    """With DEBUG (the demo), Django shows its debug pages for errors; the site's own are at /errors/<status>/."""

    @pytest.mark.parametrize(("status", "words"), [(404, b"Not found"), (500, b"Something went wrong"), (400, b"")])
    def test_the_sites_own_pages_with_debug(self, settings, status, words):
        settings.DEBUG = True
        response = Client(raise_request_exception=False).get(f"/errors/{status}/")
        assert response.status_code == status
        assert response["Content-Type"].startswith("text/html")
        assert b'class="site-header"' in response.content  # the site's page, not Django's
        assert words in response.content

    def test_the_apis_json_errors_with_debug(self, settings):
        settings.DEBUG = True
        for status in (404, 500):
            response = Client(raise_request_exception=False).get(f"/api/errors/{status}/")
            assert response.status_code == status
            assert set(response.json()) == {"message", "extra"}

    def test_not_without_debug(self):
        assert Client().get("/errors/500/").status_code == 404


@pytest.mark.django_db
def test_an_address_that_takes_only_post_answers_a_page_not_a_blank_405(client) -> None:
    response = client.get("/accounts/logout/")  # Django's LogoutView takes POST only
    assert response.status_code == 405
    assert response["Allow"] == "POST, OPTIONS"
    page = response.content.decode()
    assert "Not a page to open" in page and "takes POST, OPTIONS only" in page
    assert "<html" in page.lower()


@pytest.mark.django_db
def test_the_apis_405_stays_json(client) -> None:
    response = client.put("/api/token/", {}, content_type="application/json")
    assert response.status_code == 405
    assert response["Content-Type"].startswith("application/json")
    assert "message" in response.json()
