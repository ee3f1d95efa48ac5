"""Repositories pages, the retrieval endpoint and the source view. Thin: parse, call a service, render."""

from __future__ import annotations

import re

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.http import HttpResponseClientRedirect

from rag import browse
from rag.forms import SearchForm, UploadForm
from rag.intake import IntakeError
from rag.sources.credentials import CredentialUnreadable
from rag.models import IndexRun
from rag.services import (
    SearchError,
    SourceNotFound,
    delete_repository,
    get_repository_for_user,
    read_source,
    reindex,
    repositories_for_user,
    search,
    start_index_run,
)
from rag.services.changes import VersionNotFound, resolve_version
from rag.services.git_sync import webhook_secret
from rag.services.repositories import cancel_index_run
from rag.source_view import render_source

RECENT_RUNS = 10


def _repository_rows(user):
    repositories = list(repositories_for_user(user).order_by("name"))
    latest: dict[int, IndexRun] = {}
    for run in IndexRun.objects.filter(repository__in=repositories).order_by("repository_id", "-id").distinct("repository_id"):
        latest[run.repository_id] = run
    return [(repository, latest.get(repository.pk)) for repository in repositories]


@require_GET
def repository_list(request: HttpRequest) -> HttpResponse:
    rows = _repository_rows(request.user)
    context = {"rows": rows, "form": UploadForm(), "polling": any(run and not run.is_finished for _, run in rows)}
    if request.htmx and request.htmx.target == "repository-table":
        return render(request, "rag/partials/repository_table.html", context)
    return render(request, "rag/repository_list.html", context)


@require_POST
def upload(request: HttpRequest) -> HttpResponse:
    form = UploadForm(request.POST, request.FILES)
    error = None
    if form.is_valid():
        archive = form.cleaned_data["archive"]
        try:
            run = start_index_run(
                owner=request.user, name=form.cleaned_data["name"], archive=archive, archive_name=archive.name,
                created_by=request.user,
            )
        except IntakeError as exc:
            error = exc.message
        else:
            target = reverse("rag-repository", args=[run.repository_id])
            return HttpResponseClientRedirect(target) if request.htmx else redirect(target)
    if error:
        form.add_error("archive", error)
    if request.htmx:
        return render(request, "rag/partials/upload_form.html", {"form": form})
    rows = _repository_rows(request.user)
    return render(request, "rag/repository_list.html", {"rows": rows, "form": form, "polling": False}, status=400)


def _detail_context(request: HttpRequest, pk: int) -> dict:
    repository = get_repository_for_user(request.user, pk)
    runs = list(repository.runs.select_related("created_by").order_by("-id")[:RECENT_RUNS])
    return {
        "repository": repository,
        "runs": runs,
        "polling": any(not run.is_finished for run in runs),
        "form": UploadForm(initial={"name": repository.name}),
        "can_change": repository.owner_id == request.user.pk or request.user.is_staff,
    }


def _webhook_secret(repository) -> str:
    """The git remote's webhook secret; empty without a remote, and a note when the key no longer reads it."""
    git_remote = getattr(repository, "git_remote", None)
    if git_remote is None:
        return ""
    try:
        return webhook_secret(git_remote)
    except CredentialUnreadable:
        return "(unreadable with the current key: make a new secret)"


@require_GET
def repository_detail(request: HttpRequest, pk: int) -> HttpResponse:
    context = _detail_context(request, pk)
    if request.htmx and request.htmx.target == "runs":
        return render(request, "rag/partials/runs.html", context)
    repository = context["repository"]
    # Shown only to those who may change the repository: they give it to the forge.
    secret = _webhook_secret(repository) if context["can_change"] else ""
    return render(request, "rag/repository_detail.html", {**context, **browse.home_context(repository), "webhook_secret": secret})


@require_POST
def repository_reindex(request: HttpRequest, pk: int) -> HttpResponse:
    repository = get_repository_for_user(request.user, pk)
    # A started run is announced by the runs section itself (it follows the run), not by a
    # message that would stay on the page after the run ends.
    try:
        reindex(repository, created_by=request.user, trigger=IndexRun.Trigger.REINDEX)
    except IntakeError as exc:
        messages.error(request, exc.message)
    return redirect("rag-repository", pk=repository.pk)


@require_POST
def run_cancel(request: HttpRequest, pk: int, run_id: int) -> HttpResponse:
    repository = get_repository_for_user(request.user, pk)
    run = get_object_or_404(IndexRun, pk=run_id, repository=repository)
    if cancel_index_run(run, by=request.user):
        messages.success(request, f"Run #{run.pk} was cancelled; the previous index, if any, keeps serving.")
    else:
        messages.error(request, f"Run #{run.pk} had already finished.")
    return redirect("rag-repository", pk=repository.pk)


@require_http_methods(["GET", "POST"])
def repository_delete(request: HttpRequest, pk: int) -> HttpResponse:
    repository = get_repository_for_user(request.user, pk)
    if request.method == "POST":
        name = repository.name
        delete_repository(repository)
        messages.success(request, f"Deleted {name} and its index.")
        return redirect("rag-repositories")
    return render(request, "rag/repository_confirm_delete.html", {"repository": repository})


@require_GET
def search_api(request: HttpRequest, pk: int) -> JsonResponse:
    repository = get_repository_for_user(request.user, pk)
    form = SearchForm(request.GET)
    if not form.is_valid():
        return JsonResponse({"error": "invalid input", "fields": form.errors.get_json_data()}, status=400)
    data = form.cleaned_data
    layers = [layer.strip() for layer in (data["layers"] or "").split(",") if layer.strip()] or None
    try:
        response = search(
            repository, data["q"], mode=data["mode"] or "auto", layers=layers, path_glob=data["path"] or None,
            limit=data["limit"] or 8,
        )
    except SearchError as exc:
        return JsonResponse({"error": str(exc)}, status=400)
    return JsonResponse(
        {
            "repository": repository.pk,
            "index_run": repository.active_run_id,
            "mode": response.mode,
            "layers": list(response.layers),
            "vector_used": response.vector_used,
            "notes": response.notes,
            "results": [item.as_dict() for item in response.items],
        }
    )


# Line numbers of at most nine digits: a longer one is no line, and Python refuses to convert
# one of thousands of digits (a server error, not a range).
_LINE_NUMBER = r"\d{1,9}"
_LINES = re.compile(rf"^\s*L?({_LINE_NUMBER})\s*(?:[-:,]\s*L?({_LINE_NUMBER}))?\s*$")


def _line_number(raw: str) -> int | None:
    return int(raw) if re.fullmatch(_LINE_NUMBER, raw) else None


def parse_line_range(request: HttpRequest) -> tuple[int, int] | None:
    """``?lines=10-20`` (also ``L10-L20`` or ``10``) or ``?start=10&end=20``."""
    lines = request.GET.get("lines")
    if lines:
        match = _LINES.match(lines)
        if not match:
            return None
        start = int(match.group(1))
        end = int(match.group(2) or start)
    elif (start := _line_number(request.GET.get("start", ""))) is not None:
        end = _line_number(request.GET.get("end", ""))
        end = start if end is None else end
    else:
        return None
    start, end = max(1, start), max(1, end)
    return (min(start, end), max(start, end))


@require_GET
@gzip_page  # a highlighted file of thousands of lines is a megabyte of HTML; compressed, a tenth of it
def source(request: HttpRequest, pk: int, path: str) -> HttpResponse:
    repository = get_repository_for_user(request.user, pk)
    # ``?at=<commit or version>``: the file as a kept version had it (a citation names its version).
    at = request.GET.get("at", "").strip()
    try:
        run = resolve_version(repository, at) if at else repository.active_run
    except VersionNotFound as exc:
        messages.warning(request, f"{exc} Showing the serving version.")
        return redirect("rag-source", pk=repository.pk, path=path)
    try:
        whole = read_source(repository, path, max_lines=10**9, run=run)
    except SourceNotFound:
        # A folder's path (``source/shop/``) lists that folder; anything else is a 404.
        return browse.folder(request, repository, path)
    view = render_source(whole.path, whole.text, parse_line_range(request))
    context = {"repository": repository, "source": whole, "view": view, "source_run": run, "at": at}
    if run is not None and run.pk == repository.active_run_id:
        # Symbol pages read the serving version; a kept version's file lists none.
        context["symbols"] = browse.file_symbols(run, whole.path)
    return render(request, "rag/source.html", context)
