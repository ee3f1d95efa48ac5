"""Admin for chat sessions: who asked what, how each answer went, and its LLM calls."""

from __future__ import annotations

import json

from django.contrib import admin
from django.db.models import Count, Max
from django.http import HttpRequest, HttpResponse
from django.urls import NoReverseMatch, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.http import urlencode

from chat.models import ChatSession, Message
from chat.presentation import INTENT_LABELS, steps_in_start_order
from chat.services import export_session


def intent_filter(field: str) -> type[admin.SimpleListFilter]:
    """A filter by a message's intent whose every choice has a name (an answer without one is "none",
    not an empty link)."""

    class IntentFilter(admin.SimpleListFilter):
        title = "intent"
        parameter_name = field

        def lookups(self, request, model_admin):
            return [*INTENT_LABELS.items(), ("none", "none")]

        def queryset(self, request, queryset):
            value = self.value()
            if value is None:
                return queryset
            return queryset.filter(**{field: "" if value == "none" else value}).distinct()

    return IntentFilter


class ReplacedFilter(admin.SimpleListFilter):
    """Messages replaced by a regenerate or an edit-and-resend: gone from the chat, kept for audit."""

    title = "replaced"
    parameter_name = "replaced"

    def lookups(self, request, model_admin):
        return [("yes", "Yes"), ("no", "No")]

    def queryset(self, request, queryset):
        if self.value() in ("yes", "no"):
            return queryset.filter(replaced_at__isnull=self.value() == "no")
        return queryset


def llm_calls_url(message: Message) -> str | None:
    try:
        base = reverse("admin:llm_llmcall_changelist")
    except NoReverseMatch:
        return None
    return f"{base}?{urlencode({'correlation_id': f'message:{message.pk}'})}"


class MessageInline(admin.TabularInline):
    model = Message
    extra = 0
    can_delete = False
    show_change_link = True
    fields = [
        "created_at", "role", "status", "intent", "is_safe", "replaced_at", "short_content", "metrics_summary", "citation_list",
        "llm_calls",
    ]
    readonly_fields = fields
    ordering = ["created_at", "id"]

    def has_add_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description="content")
    def short_content(self, message: Message) -> str:
        return message.content if len(message.content) <= 160 else message.content[:159] + "…"

    @admin.display(description="metrics")
    def metrics_summary(self, message: Message) -> str:
        metrics = message.metrics or {}
        parts = [
            f"{label} {metrics[key]}{unit}"
            for key, label, unit in (
                ("ttft_ms", "TTFT", " ms"),
                ("latency_ms", "total", " ms"),
                ("tokens_in", "in", ""),
                ("tokens_out", "out", ""),
            )
            if metrics.get(key) is not None
        ]
        if metrics.get("model"):
            parts.append(str(metrics["model"]))
        conversation = metrics.get("conversation") or {}
        if conversation:
            parts.append(
                f"context {conversation.get('context_usage', 0):.0%}, handovers {conversation.get('handovers', 0)}, "
                f"summary cache {conversation.get('summary_cache_hits', 0)}/{conversation.get('summary_cache_misses', 0)} hit/miss"
            )
        return ", ".join(parts) or "-"

    @admin.display(description="citations")
    def citation_list(self, message: Message) -> str:
        return ", ".join(f"{c['path']}:{c['start_line']}-{c['end_line']}" for c in message.citations or []) or "-"

    @admin.display(description="LLM calls")
    def llm_calls(self, message: Message) -> str:
        url = llm_calls_url(message)
        if message.role != Message.Role.ASSISTANT or url is None:
            return "-"
        return format_html('<a href="{}">LLM calls</a>', url)


@admin.register(ChatSession)
class ChatSessionAdmin(admin.ModelAdmin):
    list_display = ["title", "owner", "repository", "message_count", "last_activity_at", "created_at"]
    list_select_related = ["owner", "repository"]
    list_filter = [
        "last_activity_at",
        "created_at",
        ("repository", admin.RelatedOnlyFieldListFilter),
        "messages__status",
        intent_filter("messages__intent"),
        "messages__is_safe",
    ]
    search_fields = ["title", "owner__username", "repository__name", "messages__content"]
    date_hierarchy = "last_activity_at"
    readonly_fields = ["owner", "created_at", "last_activity_at", "export_link"]
    fields = ["title", "owner", "repository", "created_at", "last_activity_at", "export_link"]
    inlines = [MessageInline]
    actions = ["export_selected"]

    def get_queryset(self, request: HttpRequest):
        return (
            super().get_queryset(request)
            .annotate(message_count=Count("messages", distinct=True), last_message_at=Max("messages__created_at"))
        )

    @admin.display(description="messages", ordering="message_count")
    def message_count(self, session: ChatSession) -> int:
        return session.message_count

    @admin.display(description="export")
    def export_link(self, session: ChatSession) -> str:
        if not session.pk:
            return "-"
        return format_html('<a href="{}">Download as JSON</a>', reverse("admin:chat_chatsession_export", args=[session.pk]))

    def get_urls(self):
        return [
            path("<int:pk>/export/", self.admin_site.admin_view(self.export_view), name="chat_chatsession_export"),
            *super().get_urls(),
        ]

    def export_view(self, request: HttpRequest, pk: int) -> HttpResponse:
        session = self.get_object(request, str(pk))
        if session is None or not self.has_view_permission(request, session):
            return HttpResponse(status=404)
        return _json_download([export_session(session)], f"chat-{session.pk}.json")

    # Reading whole chats is viewing them.
    @admin.action(description="Export selected chats as JSON", permissions=["view"])
    def export_selected(self, request: HttpRequest, queryset):
        return _json_download([export_session(session) for session in queryset], "chats.json")


def _json_download(payload: list, filename: str) -> HttpResponse:
    response = HttpResponse(
        json.dumps(payload if len(payload) != 1 else payload[0], ensure_ascii=False, indent=2, default=str),
        content_type="application/json",
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def pretty_json(value) -> str:
    """A JSON field as indented, wrapped text (the admin's own widget shows it on one line)."""
    return format_html('<pre class="readable-json">{}</pre>', json.dumps(value, ensure_ascii=False, indent=2, default=str))


# Characters of a message shown in the messages list.
LIST_TEXT_CHARS = 90


def _step_summary(detail: dict) -> str:
    """A step's arguments, result and error in one short line each, as the chat's trace shows them."""
    parts = []
    for key in ("arguments", "result", "error"):
        if key in detail:
            value = detail[key] if isinstance(detail[key], str) else json.dumps(detail[key], ensure_ascii=False, default=str)
            parts.append(f"{key}: {value if len(value) <= 300 else value[:299] + '…'}")
    return " · ".join(parts)


@admin.register(Message)
class MessageAdmin(admin.ModelAdmin):
    # Few, short columns: at 1280 px they fit beside the filters.
    list_display = ["id", "text", "chat", "role", "state", "intent", "created_at"]
    list_display_links = ["id", "text"]
    list_select_related = ["session"]
    list_filter = ["role", "status", ReplacedFilter, intent_filter("intent"), "is_safe", "created_at"]
    search_fields = ["content", "session__title", "uuid"]
    fieldsets = [
        (None, {"fields": [
            "session", ("role", "status", "intent", "is_safe"), ("created_at", "updated_at", "replaced_at"), "uuid", "llm_calls",
        ]}),
        ("Text", {"fields": ["content_text", "error"]}),
        ("Answer details", {"fields": ["metrics_readable", "citations_readable", "steps_readable", "artifacts_readable", "internal_thoughts"]}),
    ]
    readonly_fields = [
        "session", "role", "status", "intent", "is_safe", "created_at", "updated_at", "replaced_at", "uuid", "llm_calls",
        "content_text",
        "error", "metrics_readable", "citations_readable", "steps_readable", "artifacts_readable", "internal_thoughts",
    ]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    @admin.display(description="text")
    def text(self, message: Message) -> str:
        text = " ".join(message.content.split())
        return text if len(text) <= LIST_TEXT_CHARS else text[: LIST_TEXT_CHARS - 1] + "…"

    @admin.display(description="status", ordering="status")
    def state(self, message: Message) -> str:
        return f"{message.get_status_display()} (replaced)" if message.replaced_at else message.get_status_display()

    @admin.display(description="chat", ordering="session__title")
    def chat(self, message: Message) -> str:
        return message.session.title

    @admin.display(description="content")
    def content_text(self, message: Message) -> str:
        return format_html('<pre class="readable-text">{}</pre>', message.content) if message.content else "-"

    @admin.display(description="metrics")
    def metrics_readable(self, message: Message) -> str:
        # The structured record's thoughts have a field of their own below.
        metrics = {key: value for key, value in (message.metrics or {}).items() if key != "structured"}
        return pretty_json(metrics) if metrics else "-"

    @admin.display(description="citations")
    def citations_readable(self, message: Message) -> str:
        citations = message.citations or []
        if not citations:
            return "-"
        return format_html(
            "<ul class='readable-list'>{}</ul>",
            format_html_join("", "<li><code>{}:{}-{}</code></li>", ((c["path"], c["start_line"], c["end_line"]) for c in citations)),
        )

    @admin.display(description="trace steps (in the order they started)")
    def steps_readable(self, message: Message) -> str:
        steps = steps_in_start_order(message.steps)
        if not steps:
            return "-"
        rows = format_html_join(
            "",
            "<tr><td class='num'>{}</td><td style='padding-left: {}em'><code>{}</code></td><td class='num'>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    "" if step.get("start_ms") is None else f"{step['start_ms']:.0f} ms",
                    0.3 + 1.2 * int(step.get("depth", 0)),
                    step.get("node", ""),
                    f"{float(step.get('duration_ms', 0)):.0f} ms",
                    (step.get("detail") or {}).get("tool", ""),
                    _step_summary(step.get("detail") or {}),
                )
                for step in steps
            ),
        )
        return format_html(
            "<table class='readable-steps'><thead><tr><th>started</th><th>step</th><th>took</th><th>tool</th><th>detail</th></tr></thead>"
            "<tbody>{}</tbody></table>",
            rows,
        )

    @admin.display(description="files")
    def artifacts_readable(self, message: Message) -> str:
        return pretty_json(message.artifacts) if message.artifacts else "-"

    @admin.display(description="internal thoughts")
    def internal_thoughts(self, message: Message) -> str:
        """The model's private reasoning of a structured answer: for staff, never shown on the chat page."""
        thoughts = ((message.metrics or {}).get("structured") or {}).get("internal_thoughts") or []
        return format_html('<pre class="readable-text">{}</pre>', "\n\n".join(thoughts)) if thoughts else "-"

    @admin.display(description="LLM calls")
    def llm_calls(self, message: Message) -> str:
        url = llm_calls_url(message)
        return format_html('<a href="{}">LLM calls of this message</a>', url) if url else "-"


# The MCP door's tokens and call records (chat/mcp/admin.py).
import chat.mcp.admin  # noqa: E402,F401
