"""HTTP views of the LLM layer: the Prometheus metrics."""

from __future__ import annotations

import hmac

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.contrib.auth.views import redirect_to_login
from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from llm import metrics


def _bearer_token(request: HttpRequest) -> str | None:
    scheme, _, token = request.headers.get("Authorization", "").partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


@require_GET
@never_cache
# The login middleware would redirect a scraper; access is checked below instead.
@login_not_required
def metrics_view(request: HttpRequest) -> HttpResponse:
    """Prometheus text format, for staff or a scraper sending ``Authorization: Bearer <METRICS_TOKEN>``."""
    token = _bearer_token(request)
    if token is not None:
        expected = settings.LLM.get("METRICS_TOKEN") or ""
        if not expected or not hmac.compare_digest(token.encode(), expected.encode()):
            response = HttpResponse("Invalid metrics token.\n", status=401, content_type="text/plain")
            response["WWW-Authenticate"] = 'Bearer realm="metrics"'
            return response
    elif not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    elif not request.user.is_staff:
        return HttpResponse("Metrics are for staff.\n", status=403, content_type="text/plain")
    body, content_type = metrics.exposition()
    return HttpResponse(body, content_type=content_type)
