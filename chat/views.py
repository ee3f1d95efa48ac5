from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def session_list(request: HttpRequest) -> HttpResponse:
    return render(request, "chat/session_list.html", {})
