"""Repositories that follow git: connect by address, sync now, and the webhook forges call. Thin views."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django_htmx.http import HttpResponseClientRedirect

from rag.forms import GitConnectForm, GitRemoteSettingsForm, UploadForm
from rag.intake import IntakeError
from rag.models import GitRemote, IndexRun
from rag.services import get_repository_for_user
from rag.services.git_sync import (
    WebhookRefused,
    change_git_remote,
    connect_git_repository,
    handle_webhook,
    new_webhook_secret,
    queue_sync,
)


@require_POST
def git_connect(request: HttpRequest) -> HttpResponse:
    form = GitConnectForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        try:
            repository = connect_git_repository(
                owner=request.user, name=data["name"], url=data["url"], branch=data["branch"], token=data["token"],
                ssh_key=data["ssh_key"], sync_minutes=data["sync_minutes"], allow_local=request.user.is_staff,
                created_by=request.user,
            )
        except IntakeError as exc:
            form.add_error("url", exc.message)
        else:
            target = reverse("rag-repository", args=[repository.pk])
            return HttpResponseClientRedirect(target) if request.htmx else redirect(target)
    if request.htmx:
        return render(request, "rag/partials/git_connect_form.html", {"git_form": form})
    from rag.views import _repository_rows

    context = {"rows": _repository_rows(request.user), "form": UploadForm(), "git_form": form, "polling": False}
    return render(request, "rag/repository_list.html", context, status=400)


def _followed_repository(request: HttpRequest, pk: int):
    """A repository the user may change that follows git; ``Http404`` otherwise."""
    repository = get_repository_for_user(request.user, pk)
    if not hasattr(repository, "git_remote"):
        raise Http404("This repository does not follow a git remote")
    if repository.owner_id != request.user.pk and not request.user.is_staff:
        raise Http404("No such repository")
    return repository


@require_POST
def repository_sync(request: HttpRequest, pk: int) -> HttpResponse:
    repository = _followed_repository(request, pk)
    if queue_sync(repository, trigger=IndexRun.Trigger.SYNC) is None:
        messages.info(request, "A sync is already waiting to run.")
    else:
        messages.success(request, "Sync queued: the branch is fetched and a new commit indexed.")
    return redirect("rag-repository", pk=repository.pk)


@require_POST
def git_remote_settings(request: HttpRequest, pk: int) -> HttpResponse:
    repository = _followed_repository(request, pk)
    form = GitRemoteSettingsForm(request.POST)
    if not form.is_valid():
        messages.error(request, "Give a number of minutes from 0 to 10080.")
    else:
        try:
            remote = change_git_remote(repository, branch=form.cleaned_data["branch"], sync_minutes=form.cleaned_data["sync_minutes"])
        except IntakeError as exc:
            messages.error(request, exc.message)
        else:
            every = f"every {remote.sync_minutes} minutes" if remote.sync_minutes else "only by webhook or by hand"
            messages.success(request, f"Following {remote.branch or 'the default branch'}, checked {every}.")
    return redirect("rag-repository", pk=repository.pk)


@require_POST
def webhook_secret_renew(request: HttpRequest, pk: int) -> HttpResponse:
    repository = _followed_repository(request, pk)
    new_webhook_secret(repository)
    messages.success(request, "A new webhook secret was made: give it to the forge, whose deliveries signed with the old one are refused.")
    return redirect(reverse("rag-repository", args=[repository.pk]) + "#webhook-secret")  # browsers open the details around it


@csrf_exempt
@login_not_required
@require_POST
def webhook(request: HttpRequest, pk: int) -> JsonResponse:
    """A push notification from GitHub, GitLab, Gitea or Forgejo, signed with the repository's webhook secret."""
    git_remote = GitRemote.objects.select_related("repository").filter(repository_id=pk).first()
    if git_remote is None:
        return JsonResponse({"error": "no such repository"}, status=404)
    body = request.body
    try:
        # GitHub can also send the JSON as a form field named payload.
        raw = request.POST.get("payload", "") if request.content_type == "application/x-www-form-urlencoded" else body
        payload = json.loads(raw) if raw else None
    except ValueError:
        payload = None
    try:
        outcome = handle_webhook(git_remote, request.headers, body, payload)
    except WebhookRefused:
        return JsonResponse({"error": "signature refused"}, status=403)
    return JsonResponse({"status": outcome}, status=202 if outcome.startswith("sync") else 200)

