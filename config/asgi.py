"""The ASGI application: Django's pages and API over HTTP, the live tables' websockets
(live.routing) through Channels. Served by Daphne (``make run``: runserver; ``make
prod``: its own process for the sockets)."""

import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# Daphne runs its event loop (the sockets) and its one thread of database work side by
# side. A thread back from PostgreSQL waits for the interpreter's lock until the other
# gives it up, up to the switch interval (5 ms by default), and a move makes several
# round trips: at 200 tables the database thread spent about as long waiting for the
# lock as working (bench/README.md, live tables). A shorter interval hands it over sooner.
sys.setswitchinterval(float(os.environ.get("LANTERN_ASGI_SWITCH_INTERVAL", "0.0005")))
# Django is set up before anything imports a model (the consumers do).
http = get_asgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from live.routing import websocket_urlpatterns  # noqa: E402

application = ProtocolTypeRouter(
    {
        "http": http,
        # The session cookie says who is at the socket; only this site's pages may open one.
        "websocket": AllowedHostsOriginValidator(
            AuthMiddlewareStack(URLRouter(websocket_urlpatterns))
        ),
    }
)
