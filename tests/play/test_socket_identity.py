"""Who may keep a socket: the identity read at connect (play.auth.socket_identity) and judged again later."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from django.contrib.auth import HASH_SESSION_KEY
from django.test import Client
from django.utils import timezone
from rest_framework.authtoken.models import Token

from core.api_tokens import token_revoke, token_rotate
from play.auth import SocketAuthStack, SocketIdentity, socket_identity, socket_identity_valid
from tests.factories import PASSWORD, make_player

pytestmark = pytest.mark.django_db(transaction=True)


class Capture:
    """An application behind the auth stack that keeps the identity it was opened with, then refuses."""

    def __init__(self) -> None:
        self.identity: SocketIdentity | None = None

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        await receive()
        self.identity = socket_identity(scope)
        await send({"type": "websocket.close"})


def _identity(headers: list[tuple[bytes, bytes]]) -> SocketIdentity:
    capture = Capture()

    async def scenario() -> None:
        communicator = WebsocketCommunicator(SocketAuthStack(capture), "/ws/tables/1/", headers=headers)
        await communicator.connect()
        await communicator.wait()

    async_to_sync(scenario)()
    assert capture.identity is not None
    return capture.identity


def _signed_in(user: Any) -> Client:
    client = Client()
    assert client.login(username=user.username, password=PASSWORD)
    return client


def _cookie(client: Client) -> list[tuple[bytes, bytes]]:
    return [(b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode())]


def test_a_session_socket_keeps_its_session_and_auth_hash() -> None:
    user = make_player("alice").user
    browser = _signed_in(user)
    identity = _identity(_cookie(browser))
    assert identity == SocketIdentity(
        user_id=user.pk,
        session_key=browser.session.session_key,
        session_auth_hash=browser.session[HASH_SESSION_KEY],
    )
    assert socket_identity_valid(identity)


def test_a_token_socket_keeps_its_token_even_with_a_session_cookie_too() -> None:
    user = make_player("alice").user
    key = Token.objects.create(user=user).key
    identity = _identity([(b"authorization", f"Token {key}".encode()), *_cookie(_signed_in(user))])
    assert identity == SocketIdentity(user_id=user.pk, token_key=key)
    assert socket_identity_valid(identity)


def test_a_spectator_not_signed_in_has_nothing_to_lose() -> None:
    identity = _identity([(b"authorization", b"Token not-a-key")])
    assert identity == SocketIdentity(user_id=None)
    assert socket_identity_valid(identity)


def test_signing_out_ends_a_session_socket() -> None:
    user = make_player("alice").user
    browser = _signed_in(user)
    identity = _identity(_cookie(browser))
    browser.logout()
    assert not socket_identity_valid(identity)


def test_a_password_change_ends_every_session_socket_opened_before_it() -> None:
    user = make_player("alice").user
    identity = _identity(_cookie(_signed_in(user)))
    user.set_password("another-password-entirely")
    user.save()
    assert not socket_identity_valid(identity)


def test_a_new_login_elsewhere_leaves_this_session_alone_but_a_disabled_account_does_not() -> None:
    user = make_player("alice").user
    identity = _identity(_cookie(_signed_in(user)))
    _signed_in(user)  # another browser
    assert socket_identity_valid(identity)
    user.is_active = False
    user.save()
    assert not socket_identity_valid(identity)


def test_a_deleted_user_ends_both_kinds_of_socket() -> None:
    user = make_player("alice").user
    by_session = _identity(_cookie(_signed_in(user)))
    by_token = SocketIdentity(user_id=user.pk, token_key=Token.objects.create(user=user).key)
    user.delete()
    assert not socket_identity_valid(by_session)
    assert not socket_identity_valid(by_token)


@pytest.mark.parametrize("change", ["revoke", "rotate", "expire", "disable"])
def test_a_token_socket_ends_when_the_api_would_refuse_the_token(change: str) -> None:
    user = make_player("alice").user
    token = Token.objects.create(user=user)
    identity = SocketIdentity(user_id=user.pk, token_key=token.key)
    assert socket_identity_valid(identity)
    if change == "revoke":
        token_revoke(user_id=user.pk)
    elif change == "rotate":
        token_rotate(user_id=user.pk)
    elif change == "expire":
        Token.objects.filter(pk=token.pk).update(created=timezone.now() - timedelta(days=365))
    else:
        user.is_active = False
        user.save()
    assert not socket_identity_valid(identity)
