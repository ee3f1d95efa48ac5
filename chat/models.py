"""Chat sessions and their messages."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils import timezone

DEFAULT_TITLE = "New chat"
TITLE_MAX_LENGTH = 120


class ChatSession(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="chat_sessions")
    title = models.CharField(max_length=TITLE_MAX_LENGTH, default=DEFAULT_TITLE)
    # The repository questions are answered from; none for general chats.
    repository = models.ForeignKey(
        "rag.Repository", null=True, blank=True, on_delete=models.SET_NULL, related_name="chat_sessions"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    last_activity_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-last_activity_at", "-id"]
        indexes = [models.Index(fields=["owner", "-last_activity_at"], name="chat_session_owner_recent")]

    def __str__(self) -> str:
        return self.title

    def has_default_title(self) -> bool:
        return self.title == DEFAULT_TITLE


class Message(models.Model):
    class Role(models.TextChoices):
        USER = "user", "User"
        ASSISTANT = "assistant", "Assistant"

    class Status(models.TextChoices):
        STREAMING = "streaming", "Streaming"
        COMPLETE = "complete", "Complete"
        CANCELLED = "cancelled", "Cancelled"
        ERROR = "error", "Error"

    FINAL_STATUSES = frozenset({Status.COMPLETE, Status.CANCELLED, Status.ERROR})

    # Also the correlation id of the LLM calls made for this message (llm audit).
    uuid = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    session = models.ForeignKey(ChatSession, on_delete=models.CASCADE, related_name="messages")
    role = models.CharField(max_length=16, choices=Role.choices)
    content = models.TextField(blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.COMPLETE)
    intent = models.CharField(max_length=32, blank=True)
    # ttft_ms, latency_ms, tokens_in, tokens_out, model.
    metrics = models.JSONField(default=dict, blank=True)
    # [{"path", "start_line", "end_line", "layer", "score"}]
    citations = models.JSONField(default=list, blank=True)
    # [{"node", "depth", "duration_ms", "detail"}]: the agent's trace.
    steps = models.JSONField(default=list, blank=True)
    # [{"kind": "markdown"|"patch", "name", "content"}]
    artifacts = models.JSONField(default=list, blank=True)
    # The user-facing reason when status is error.
    error = models.TextField(blank=True)
    # Set by a safety check when one runs; None means not checked.
    is_safe = models.BooleanField(null=True, blank=True)
    # Set when the user regenerated the answer or edited and resent the question: the message then
    # leaves the chat page and the model's history, and stays here for audit.
    replaced_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [
            models.Index(fields=["session", "created_at"], name="chat_message_session_time"),
            # Answers being written, by chat: the per-user limit counts them chat by chat under a lock
            # (chat.services.start_turn). Keyed by status alone, the index was read whole once per chat
            # of the user, dead entries of finished answers included, and the lock queued every question.
            models.Index(fields=["session"], name="chat_message_streaming", condition=models.Q(status="streaming")),
        ]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role="assistant") | models.Q(status="complete"),
                name="chat_message_user_messages_are_complete",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.role} #{self.pk}"

    @property
    def is_streaming(self) -> bool:
        return self.status == self.Status.STREAMING

    @property
    def dom_id(self) -> str:
        return f"msg-{self.pk}"


# The MCP door's tables belong to this app; their code lives with the door.
from chat.mcp.models import AccessToken, ToolUse  # noqa: E402,F401
