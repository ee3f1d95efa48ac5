from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def repository_list(request: HttpRequest) -> HttpResponse:
    return render(request, "rag/repository_list.html", {})
