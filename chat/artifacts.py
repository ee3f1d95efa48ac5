"""Files attached to answers: documents (``.md``) and patches (``.patch``).

An answer stores its artifacts as ``[{"kind", "name", "content"}]``
(``Message.artifacts``). They are downloaded one by one and listed per chat;
every lookup goes through ``get_session_for_user``, so only the chat's owner
reaches them.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.http import content_disposition_header
from django.views.decorators.http import require_GET

from chat.models import ChatSession, Message
from chat.services import get_session_for_user

KINDS = {
    "markdown": (".md", "text/markdown; charset=utf-8", "Markdown document"),
    "patch": (".patch", "text/x-diff; charset=utf-8", "patch"),
}
_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


@dataclass(frozen=True)
class Artifact:
    """One stored artifact with where it belongs."""

    message_id: int
    index: int
    kind: str
    name: str
    content: str

    @classmethod
    def from_stored(cls, message_id: int, index: int, stored: Mapping[str, Any]) -> Artifact:
        return cls(
            message_id=message_id,
            index=index,
            kind=str(stored.get("kind", "")),
            name=str(stored.get("name", "")),
            content=str(stored.get("content", "")),
        )

    @property
    def filename(self) -> str:
        """A safe file name that ends in the kind's extension."""
        suffix = KINDS.get(self.kind, (".txt",))[0]
        stem = _UNSAFE.sub("-", self.name).strip("-.") or "artifact"
        return stem if stem.endswith(suffix) else f"{stem.removesuffix('.txt')}{suffix}"

    @property
    def content_type(self) -> str:
        return KINDS.get(self.kind, ("", "text/plain; charset=utf-8"))[1]

    @property
    def label(self) -> str:
        return KINDS.get(self.kind, ("", "", "file"))[2]

    @property
    def summary(self) -> str:
        """Size in words a reader can use: files and changed lines of a patch, lines of a document."""
        lines = self.content.splitlines()
        if self.kind == "patch":
            files = sum(line.startswith("diff --git ") for line in lines)
            added = sum(line.startswith("+") and not line.startswith("+++") for line in lines)
            removed = sum(line.startswith("-") and not line.startswith("---") for line in lines)
            return f"{files} {'file' if files == 1 else 'files'}, +{added} −{removed}"
        return f"{len(lines)} lines"


def message_artifact(user, message_id: int, index: int) -> Artifact:
    """Artifact ``index`` of answer ``message_id``; ``Http404`` unless ``user`` owns its chat."""
    try:
        message = Message.objects.only("id", "session_id", "artifacts").get(pk=message_id)
    except Message.DoesNotExist:
        raise Http404("No such attachment") from None
    get_session_for_user(user, message.session_id)
    stored = message.artifacts or []
    if not 0 <= index < len(stored) or not isinstance(stored[index], Mapping):
        raise Http404("No such attachment")
    return Artifact.from_stored(message.pk, index, stored[index])


def session_artifacts(session: ChatSession) -> list[Artifact]:
    """Every artifact of the chat's answers still shown (not replaced), the newest answer first."""
    messages = session.messages.filter(replaced_at__isnull=True).exclude(artifacts=[]).order_by("-created_at", "-id").values_list("id", "artifacts")
    return [
        Artifact.from_stored(message_id, index, stored)
        for message_id, artifacts in messages
        for index, stored in enumerate(artifacts or [])
        if isinstance(stored, Mapping)
    ]


@require_GET
def artifact_download(request: HttpRequest, message_pk: int, index: int) -> HttpResponse:
    artifact = message_artifact(request.user, message_pk, index)
    response = HttpResponse(artifact.content, content_type=artifact.content_type)
    response["Content-Disposition"] = content_disposition_header(True, artifact.filename)
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
def artifact_list(request: HttpRequest, pk: int) -> HttpResponse:
    """The chat's artifacts: a fragment for htmx, a page otherwise."""
    session = get_session_for_user(request.user, pk)
    template = "chat/artifacts/list.html" if request.htmx else "chat/artifacts/page.html"
    return render(request, template, {"session": session, "artifacts": session_artifacts(session)})
