"""ASGI entry point: HTTP to Django, WebSockets (`/ws/...`, the tables) to Channels.

A socket's `Origin` is checked only when the client sends one (browsers do;
other clients, signed in with a token, send none), and must then be one of
the site's own hosts. `daphne speedsite.asgi:application` serves both.

The socket stack, from the outside in: `play.edge.SocketEdge` (unrouted paths,
the per-address cap, the bounded receive queue, outages answered 4013), the
origin check, the auth stack (session cookie or token), `play.edge.SocketsPerUser`
(the per-user cap, which needs the user), the router. The edge is outermost so
that it also answers an outage raised by the auth stack's session or token lookup.
"""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "speedsite.settings")
django_application = get_asgi_application()  # before anything imports models

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from play.auth import SocketAuthStack  # noqa: E402
from play.edge import SocketEdge, SocketsPerUser  # noqa: E402
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


websocket_router = URLRouter(websocket_urlpatterns)
websocket_application = SocketEdge(
    OriginCheckWhenPresent(SocketAuthStack(SocketsPerUser(websocket_router))),
    routes=websocket_router.routes,
)

application = ProtocolTypeRouter({"http": django_application, "websocket": websocket_application})
