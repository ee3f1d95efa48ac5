"""Personal access tokens, and the record of what each token was used for.

A token lets a person's own tools (their editor's agent over MCP) act as
them: it sees exactly what its user sees, optionally only some of their
repositories. Only a SHA-256 digest of the secret is stored; the secret is
shown once, when it is made.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class AccessToken(models.Model):
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens")
    name = models.CharField(max_length=100)
    # The secret's first characters, shown in lists so a person can tell their tokens apart.
    prefix = models.CharField(max_length=16)
    digest = models.CharField(max_length=64, unique=True)
    # Empty: every repository the user may see.
    repositories = models.ManyToManyField("rag.Repository", blank=True, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField(null=True, blank=True, help_text="Empty: never expires.")
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…)"

    @property
    def is_expired(self) -> bool:
        return self.expires_at is not None and self.expires_at <= timezone.now()

    @property
    def is_active(self) -> bool:
        return self.revoked_at is None and not self.is_expired


class ToolUse(models.Model):
    """One call made with a token: who, which tool, on which repository, when, how long, how it ended."""

    token = models.ForeignKey(AccessToken, null=True, on_delete=models.SET_NULL, related_name="uses")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    tool = models.CharField(max_length=64)
    repository = models.ForeignKey("rag.Repository", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    started_at = models.DateTimeField(default=timezone.now)
    duration_ms = models.FloatField(default=0.0)
    ok = models.BooleanField(default=True)
    error = models.TextField(blank=True)

    class Meta:
        ordering = ["-started_at", "-id"]
        indexes = [models.Index(fields=["token", "started_at"], name="agentsite_tooluse_token_time")]

    def __str__(self) -> str:
        return f"{self.tool} at {self.started_at:%Y-%m-%d %H:%M:%S}"
