"""ASGI entry point: HTTP to Django, WebSockets (`/ws/...`, the tables) to Channels.

A socket's `Origin` is checked only when the client sends one (browsers do;
other clients, signed in with a token, send none), and must then be one of
the site's own hosts. `daphne speedsite.asgi:application` serves both.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "speedsite.settings")
django_application = get_asgi_application()  # before anything imports models

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from play.auth import SocketAuthStack  # noqa: E402
from play.routing import websocket_urlpatterns  # noqa: E402


class OriginCheckWhenPresent:
    """Channels' allowed-hosts origin check, for connections that send an `Origin` header."""

    def __init__(self, inner):
        self.inner = inner
        self.checked = AllowedHostsOriginValidator(inner)

    async def __call__(self, scope, receive, send):
        if any(name == b"origin" for name, _value in scope.get("headers", ())):
            return await self.checked(scope, receive, send)
        return await self.inner(scope, receive, send)


websocket_application = OriginCheckWhenPresent(SocketAuthStack(URLRouter(websocket_urlpatterns)))

application = ProtocolTypeRouter({"http": django_application, "websocket": websocket_application})
