"""Admin for prompts (overrides with history, diffs, reset), the audit of provider calls and conversation summaries."""

from __future__ import annotations

import difflib
import json

from django.contrib import admin, messages
from django.db import models
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from llm import prompts
from llm.models import ConversationSummary, LLMCall, Prompt, PromptVersion


def _unified_diff(before: str, after: str, before_label: str, after_label: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(), after.splitlines(), fromfile=before_label, tofile=after_label, lineterm=""
    )
    return "\n".join(lines) or "(no changes)"


@admin.register(Prompt)
class PromptAdmin(admin.ModelAdmin):
    list_display = ("name", "overridden", "version", "updated_at")
    list_filter = ("overridden",)
    search_fields = ("name", "text")
    fields = ("name", "text", "overridden", "version", "file_default", "history")
    readonly_fields = ("overridden", "version", "file_default", "history")
    actions = ("reset_to_file_default",)

    def get_readonly_fields(self, request: HttpRequest, obj: Prompt | None = None):
        # The name is the link to the file and to callers; it is fixed once created.
        return (*self.readonly_fields, "name") if obj is not None else self.readonly_fields

    def changelist_view(self, request: HttpRequest, extra_context=None):
        prompts.ensure_prompt_rows()
        return super().changelist_view(request, extra_context)

    def get_object(self, request, object_id, from_field=None):
        obj = super().get_object(request, object_id, from_field)
        if obj is not None and not obj.overridden:
            # Editing starts from the text in use: the current file.
            obj.text = prompts.file_text(obj.name) or obj.text
        return obj

    def save_model(self, request: HttpRequest, obj: Prompt, form, change: bool) -> None:
        text = form.cleaned_data["text"]
        if not change:
            obj.text = ""
            obj.save()
        if not change or "text" in form.changed_data:
            obj.save_text(text, user=request.user)

    @admin.display(description="file default")
    def file_default(self, obj: Prompt) -> str:
        text = prompts.file_text(obj.name) if obj.name else None
        if text is None:
            return f"No file {obj.name}.txt: without an override the prompt falls back to “{prompts.FALLBACK_TEXT}”"
        return format_html("<pre style='white-space: pre-wrap'>{}</pre>", text)

    @admin.display(description="versions (each compared with the one before it)")
    def history(self, obj: Prompt) -> str:
        if obj.pk is None:
            return "-"
        versions = list(obj.versions.select_related("created_by").order_by("version"))
        if not versions:
            return "No saved versions: the file's text is in use."
        previous_text = prompts.file_text(obj.name) or ""
        previous_label = "file"
        rows = []
        for version in versions:
            label = f"v{version.version}"
            rows.append(
                (
                    label,
                    " (reset to the file)" if version.is_reset else "",
                    version.created_at.strftime("%Y-%m-%d %H:%M"),
                    version.created_by or "-",
                    _unified_diff(previous_text, version.text, previous_label, label),
                )
            )
            previous_text, previous_label = version.text, label
        return format_html_join(
            "",
            "<h4>{}{} · {} · {}</h4><pre style='white-space: pre-wrap'>{}</pre>",
            reversed(rows),
        )

    @admin.action(description="Reset to the file default (keeps the history)", permissions=["change"])
    def reset_to_file_default(self, request: HttpRequest, queryset: models.QuerySet[Prompt]) -> None:
        reset, missing = [], []
        for prompt in queryset:
            text = prompts.file_text(prompt.name)
            if text is None:
                missing.append(prompt.name)
                continue
            prompt.reset_to_file(text, user=request.user)
            reset.append(prompt.name)
        if reset:
            messages.success(request, f"Reset to the file text: {', '.join(reset)}.")
        if missing:
            messages.warning(request, f"No prompt file, nothing to reset to: {', '.join(missing)}.")


@admin.register(PromptVersion)
class PromptVersionAdmin(admin.ModelAdmin):
    list_display = ("prompt", "version", "is_reset", "created_at", "created_by")
    list_filter = ("is_reset", "prompt")
    list_select_related = ("prompt", "created_by")
    readonly_fields = ("prompt", "version", "text", "is_reset", "created_at", "created_by")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False


def _pretty_json(value) -> str:
    return format_html(
        "<pre style='white-space: pre-wrap; max-height: 40em; overflow: auto'>{}</pre>",
        json.dumps(value, ensure_ascii=False, indent=2),
    )


@admin.register(LLMCall)
class LLMCallAdmin(admin.ModelAdmin):
    # Seven short columns (several fields each) fit beside the filters at 1280 px.
    list_display = ("created_at", "call", "prompt", "outcome", "latency", "tokens", "correlation_id")
    list_filter = ("outcome", "provider", "kind", "prompt_name", "model", "created_at")
    search_fields = ("correlation_id", "prompt_name", "model", "error")
    date_hierarchy = "created_at"
    fields = (
        ("provider", "model", "kind"),
        ("prompt_name", "prompt_version", "correlation_id"),
        ("outcome", "http_status", "retries"),
        ("latency_ms", "ttft_ms", "prompt_tokens", "completion_tokens"),
        "error",
        "result_pretty",
        "request_pretty",
        "wire_request_pretty",
        "events_pretty",
        "response_pretty",
        "created_at",
    )
    readonly_fields = [f for group in fields for f in (group if isinstance(group, tuple) else (group,))]

    def get_queryset(self, request: HttpRequest):
        # The payload columns can hold thousands of events per call; the list shows none of them.
        return super().get_queryset(request).defer("request", "wire_request", "response", "events", "result")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj=None) -> bool:
        return False

    @admin.display(description="call", ordering="model")
    def call(self, obj: LLMCall) -> str:
        return " · ".join(part for part in (obj.provider, obj.model, obj.kind) if part)

    @admin.display(description="prompt", ordering="prompt_name")
    def prompt(self, obj: LLMCall) -> str:
        if not obj.prompt_name:
            return "-"
        return f"{obj.prompt_name} v{obj.prompt_version}" if obj.prompt_version else obj.prompt_name

    @admin.display(description="latency (first token)", ordering="latency_ms")
    def latency(self, obj: LLMCall) -> str:
        return f"{obj.latency_ms:.0f} ms" + (f" ({obj.ttft_ms:.0f} ms)" if obj.ttft_ms is not None else "")

    @admin.display(description="tokens in / out", ordering="prompt_tokens")
    def tokens(self, obj: LLMCall) -> str:
        return f"{obj.prompt_tokens} / {obj.completion_tokens}"

    @admin.display(description="result")
    def result_pretty(self, obj: LLMCall) -> str:
        return _pretty_json(obj.result)

    @admin.display(description="request (provider-neutral)")
    def request_pretty(self, obj: LLMCall) -> str:
        return _pretty_json(obj.request)

    @admin.display(description="wire request")
    def wire_request_pretty(self, obj: LLMCall) -> str:
        return _pretty_json(obj.wire_request)

    @admin.display(description="events")
    def events_pretty(self, obj: LLMCall) -> str:
        return _pretty_json(obj.events)

    @admin.display(description="raw stream payloads")
    def response_pretty(self, obj: LLMCall) -> str:
        return _pretty_json(obj.response)


@admin.register(ConversationSummary)
class ConversationSummaryAdmin(admin.ModelAdmin):
    """Summaries are derived data: readable for support, never edited by hand."""

    list_display = ("session_key", "covered_messages", "model", "created_at")
    list_filter = ("model",)
    search_fields = ("session_key", "text")
    readonly_fields = ("key", "session_key", "covered_messages", "text", "model", "created_at")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False
