"""Admin for personal access tokens and the calls made with them (who, tool, repository, when, how long)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.utils import timezone

from chat.mcp.models import AccessToken, ToolUse


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    list_display = ("name", "user", "prefix", "created_at", "expires_at", "last_used_at", "revoked_at")
    list_filter = ("revoked_at",)
    search_fields = ("name", "user__username", "prefix")
    list_select_related = ("user",)
    # The digest is of no use to a person; a token is made on the Editor access page or with create_token.
    exclude = ("digest",)
    readonly_fields = ("user", "prefix", "created_at", "last_used_at", "revoked_at")
    actions = ("revoke",)

    def has_add_permission(self, request) -> bool:
        return False

    @admin.action(description="Revoke the selected tokens")
    def revoke(self, request, queryset) -> None:
        count = queryset.filter(revoked_at=None).update(revoked_at=timezone.now())
        self.message_user(request, f"Revoked {count} token(s).", messages.SUCCESS)


@admin.register(ToolUse)
class ToolUseAdmin(admin.ModelAdmin):
    list_display = ("started_at", "user", "token", "tool", "repository", "duration_ms", "ok")
    list_filter = ("tool", "ok")
    search_fields = ("user__username", "token__name", "tool", "repository__name", "error")
    list_select_related = ("user", "token", "repository")
    date_hierarchy = "started_at"
    readonly_fields = ("token", "user", "tool", "repository", "started_at", "duration_ms", "ok", "error")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
