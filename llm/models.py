"""Stored records of the LLM layer: audit of provider calls, and prompt overrides with their history."""

from __future__ import annotations

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models, transaction


class LLMCall(models.Model):
    """One provider call as it happened (written by ``llm.audit.finish``; read-only afterwards)."""

    class Kind(models.TextChoices):
        CHAT = "chat"
        EMBEDDINGS = "embeddings"

    class Outcome(models.TextChoices):
        OK = "ok"
        ERROR = "error"
        CANCELLED = "cancelled"

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    provider = models.CharField(max_length=32, db_index=True)
    model = models.CharField(max_length=200, blank=True)
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.CHAT)
    prompt_name = models.CharField(max_length=100, blank=True, db_index=True)
    prompt_version = models.PositiveIntegerField(null=True, blank=True)
    # Set by the caller through ``llm.audit.correlation`` (e.g. the chat message the call served).
    correlation_id = models.CharField(max_length=200, null=True, blank=True, db_index=True)
    request = models.JSONField(default=dict, help_text="The provider-neutral request, secrets redacted.")
    wire_request = models.JSONField(default=dict, help_text="What was sent to the provider, secrets redacted.")
    response = models.JSONField(default=list, help_text="The raw stream payloads as received.")
    events = models.JSONField(default=list, help_text="The typed events the adapter emitted.")
    result = models.JSONField(default=dict, help_text="The parsed answer (or the text received before an error).")
    outcome = models.CharField(max_length=16, choices=Outcome.choices, db_index=True)
    http_status = models.PositiveSmallIntegerField(null=True, blank=True)
    error = models.TextField(blank=True)
    latency_ms = models.FloatField()
    ttft_ms = models.FloatField(null=True, blank=True, verbose_name="time to first token (ms)")
    prompt_tokens = models.PositiveIntegerField(default=0)
    completion_tokens = models.PositiveIntegerField(default=0)
    retries = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "LLM call"

    def __str__(self) -> str:
        return f"{self.provider} {self.model} {self.prompt_name or self.kind} #{self.pk}"


class Prompt(models.Model):
    """An admin override of a prompt file (``llm/prompts/<name>.txt``).

    ``version`` counts saved texts; 0 means the file's own text is in use.
    Every text ever saved (and every reset) is kept as a ``PromptVersion``.
    """

    name = models.CharField(
        max_length=100,
        unique=True,
        validators=[RegexValidator(r"^[a-z0-9_]+$", "Lower-case letters, digits and underscores, as in the file name.")],
    )
    text = models.TextField(blank=True)
    overridden = models.BooleanField(default=False, help_text="Off: the file's text is used.")
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name

    def save_text(self, text: str, *, user=None) -> PromptVersion:
        """Make ``text`` the prompt's active text as a new version."""
        with transaction.atomic():
            self.text = text
            self.overridden = True
            self.version = self._next_version()
            self.save()
            return self.versions.create(version=self.version, text=text, created_by=user)

    def reset_to_file(self, file_text: str, *, user=None) -> PromptVersion:
        """Go back to the file's text; the reset is itself a version, so nothing is lost."""
        with transaction.atomic():
            self.text = file_text
            self.overridden = False
            self.version = self._next_version()
            self.save()
            return self.versions.create(version=self.version, text=file_text, created_by=user, is_reset=True)

    def _next_version(self) -> int:
        latest = self.versions.aggregate(models.Max("version"))["version__max"] or 0
        return latest + 1


class PromptVersion(models.Model):
    prompt = models.ForeignKey(Prompt, on_delete=models.CASCADE, related_name="versions")
    version = models.PositiveIntegerField()
    text = models.TextField()
    is_reset = models.BooleanField(default=False, help_text="This version restored the file's text.")
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL)

    class Meta:
        ordering = ["-version"]
        constraints = [models.UniqueConstraint(fields=["prompt", "version"], name="llm_prompt_version_unique")]

    def __str__(self) -> str:
        return f"{self.prompt.name} v{self.version}"


# Models defined beside the code that uses them; imported here so Django finds them.
from llm.conversation.store import ConversationSummary  # noqa: E402,F401
