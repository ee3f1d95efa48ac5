"""The chat pages: the list of chats and one chat."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from chat import services
from chat.forms import NewSessionForm, RenameSessionForm
from chat.presentation import message_context


@require_GET
def session_list(request: HttpRequest) -> HttpResponse:
    sessions = services.sessions_for_user(request.user).select_related("repository")
    return render(request, "chat/session_list.html", {"sessions": sessions, "form": NewSessionForm(user=request.user)})


@require_POST
def session_create(request: HttpRequest) -> HttpResponse:
    form = NewSessionForm(request.POST, user=request.user)
    if not form.is_valid():
        sessions = services.sessions_for_user(request.user).select_related("repository")
        return render(request, "chat/session_list.html", {"sessions": sessions, "form": form}, status=400)
    repository = form.cleaned_data["repository"]
    if "repository" not in request.POST:
        # No choice made (an empty choice is the general chat): the user's one indexed repository.
        repository = services.default_repository(request.user)
    session = services.create_session(request.user, title=form.cleaned_data["title"], repository=repository)
    return redirect("chat-session", pk=session.pk)


@require_GET
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    session = services.get_session_for_user(request.user, pk)
    services.interrupt_stale_answers(session.pk)
    stored = list(services.shown_messages(session))
    history = [message_context(m, session.repository_id) for m in stored]
    streaming = [m.pk for m in stored if m.is_streaming]
    return render(
        request,
        "chat/session_detail.html",
        {"session": session, "history": history, "watch": streaming},
    )


@require_POST
def message_replace(request: HttpRequest, pk: int, message_id: int) -> HttpResponse:
    """Regenerate and edit-and-resend: the question and what followed it leave the chat before it is asked again."""
    session = services.get_session_for_user(request.user, pk)
    try:
        replaced = services.replace_from(session, message_id)
    except services.AnswerStillRunning:
        return JsonResponse({"error": "An answer is still being written: stop it first."}, status=409)
    return JsonResponse({"replaced": [f"msg-{message_pk}" for message_pk in replaced]})


@require_http_methods(["GET", "POST"])
def session_rename(request: HttpRequest, pk: int) -> HttpResponse:
    session = services.get_session_for_user(request.user, pk)
    form = RenameSessionForm(request.POST or None, instance=session)
    if request.method == "POST" and form.is_valid():
        services.rename_session(session, form.cleaned_data["title"])
        messages.success(request, f"Renamed to “{session.title}”.")
        return redirect("chat-sessions")
    status = 400 if request.method == "POST" else 200
    return render(request, "chat/session_rename.html", {"session": session, "form": form}, status=status)


@require_http_methods(["GET", "POST"])
def session_delete(request: HttpRequest, pk: int) -> HttpResponse:
    session = services.get_session_for_user(request.user, pk)
    if request.method == "POST":
        title = session.title
        services.delete_session(session)
        messages.success(request, f"Deleted “{title}”.")
        return redirect("chat-sessions")
    return render(request, "chat/session_delete.html", {"session": session, "message_count": session.messages.count()})
