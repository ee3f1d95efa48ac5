"""ASGI entry: HTTP through Django (``/mcp`` through the MCP server), websockets through Channels."""

from __future__ import annotations

import asyncio
import gc
import importlib
import os
import sys

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "agentsite.settings")

# Initialise Django (apps, models) before importing anything that uses the ORM.
django_asgi_app = get_asgi_application()

from django.conf import settings  # noqa: E402

# One event loop serves every page and model stream of this process; a short
# switch interval keeps the database thread from holding it up (settings).
sys.setswitchinterval(settings.ASGI_SWITCH_INTERVAL_MS / 1000)

from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from channels.security.websocket import AllowedHostsOriginValidator  # noqa: E402

from chat.routing import websocket_urlpatterns  # noqa: E402

from django.urls import reverse  # noqa: E402

from agentsite.request_limits import RequestBodyLimit  # noqa: E402
from agentsite.websocket_auth import SessionUserMiddleware  # noqa: E402

# An upload may be a zip of RAG_MAX_UPLOAD_BYTES plus the rest of its form.
UPLOAD_FORM_OVERHEAD = 64 * 1024

# Editors' agents reach the repository tools here (chat/mcp/, docs/MCP.md); the SDK's transport
# limits the request body itself.
MCP_PATHS = frozenset({"/mcp", "/mcp/"})
django_http = RequestBodyLimit(
    django_asgi_app,
    default=settings.MAX_REQUEST_BODY_BYTES,
    limits={reverse("rag-upload"): settings.RAG["MAX_UPLOAD_BYTES"] + UPLOAD_FORM_OVERHEAD},
)


class LazyMcpEndpoint:
    """``chat.mcp.endpoint.McpEndpoint``, imported on the first ``/mcp`` request.

    The MCP SDK and its schema models take about 1.4 s of CPU to import, most of the web
    process's start-up; a site whose editors never connect does not pay it. The first request
    imports it on a thread, so the event loop serves pages and streams meanwhile.
    """

    def __init__(self) -> None:
        self._endpoint = None

    async def __call__(self, scope, receive, send) -> None:
        if self._endpoint is None:
            module = await asyncio.to_thread(importlib.import_module, "chat.mcp.endpoint")
            if self._endpoint is None:  # another first request may have set it during the import
                self._endpoint = module.McpEndpoint()
        await self._endpoint(scope, receive, send)


mcp_endpoint = LazyMcpEndpoint()


async def http(scope, receive, send) -> None:
    if scope["path"] in MCP_PATHS:
        await mcp_endpoint(scope, receive, send)
    else:
        await django_http(scope, receive, send)


application = ProtocolTypeRouter(
    {
        "http": http,
        "websocket": AllowedHostsOriginValidator(SessionUserMiddleware(URLRouter(websocket_urlpatterns))),
    }
)

# The objects built so far (Django, the apps, every module) live as long as the
# process: frozen, the garbage collector never walks them again. With a few
# hundred answers streaming, a full collection over them stopped every stream
# and question for 100 to 150 ms; collecting the youngest objects every
# ASGI_GC_THRESHOLD allocations instead of every 700 cut the collector's time
# about tenfold (docs/BENCHMARKS.md).
gc.set_threshold(settings.ASGI_GC_THRESHOLD, 20, 20)
gc.freeze()
