"""Audit records of provider calls, their JSON files, log truncation, and replay."""

from __future__ import annotations

import asyncio
import json
import logging
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from llm import audit
from llm.models import LLMCall
from llm.providers.offline import NO_MODEL_TEXT
from llm.registry import get_provider
from llm.types import ChatRequest, Message, ToolCall
from tests.llm.fakes import Reply

pytestmark = pytest.mark.django_db(transaction=True)


def ask(text: str = "Where is the retry policy?", **kwargs) -> ChatRequest:
    return ChatRequest(
        messages=(Message("system", "Cite code."), Message("user", text)),
        prompt_name="project_answer",
        prompt_version=3,
        **kwargs,
    )


async def test_a_streamed_call_is_recorded_with_its_events_usage_and_timing(fake_openai):
    fake_openai.script(Reply.error(502, "bad gateway"), Reply.text("It is in llm/retry.py:1-20.", chunk_size=6, interval=0.01, usage=(30, 9)))
    token = audit.correlation.set("message:41")
    try:
        await get_provider().complete(ask())
    finally:
        audit.correlation.reset(token)

    call = await LLMCall.objects.aget()
    assert (call.provider, call.model, call.kind, call.outcome) == ("openai", "gpt-4o-mini", "chat", "ok")
    assert (call.prompt_name, call.prompt_version, call.correlation_id) == ("project_answer", 3, "message:41")
    assert call.result["text"] == "It is in llm/retry.py:1-20."
    assert (call.prompt_tokens, call.completion_tokens) == (30, 9)
    # The streamed pieces are one text event (a dict per token would be kept for the whole answer).
    assert [e["type"] for e in call.events] == ["text", "usage", "done"]
    assert call.events[0] == {"type": "text", "text": "It is in llm/retry.py:1-20."}
    assert len(call.response) > 3
    assert call.response[-1] == "[DONE]"
    assert call.request["messages"][1]["content"] == "Where is the retry policy?"
    assert call.wire_request["json"]["model"] == "gpt-4o-mini"
    assert 0 < call.ttft_ms <= call.latency_ms
    assert call.retries == 1


async def test_secrets_never_reach_the_record(fake_openai):
    call = ToolCall(id="c1", name="deploy", arguments={"api_key": "sk-live-123", "region": "eu"})
    await get_provider().complete(
        ChatRequest(messages=(Message("user", "deploy"), Message("assistant", "", tool_calls=(call,)), Message("tool", "done", tool_call_id="c1")))
    )
    record = await LLMCall.objects.aget()
    stored = json.dumps([record.request, record.wire_request, record.events])
    assert "sk-live-123" not in stored
    assert "test-key" not in stored
    assert record.request["messages"][1]["tool_calls"][0]["arguments"] == {"api_key": "[redacted]", "region": "eu"}


async def test_a_failed_call_records_the_error_and_the_partial_text(fake_openai):
    fake_openai.script(Reply.text("partial answer that breaks", chunk_size=4, cut_after=3))
    events = [e async for e in get_provider().stream(ask())]
    assert events[-1].type == "error"

    call = await LLMCall.objects.aget()
    assert call.outcome == "error"
    assert call.result == {"partial_text": "partial "}
    assert "could not reach the provider" in call.error


async def test_a_cancelled_call_is_recorded_as_cancelled(fake_openai):
    fake_openai.script(Reply.text("y" * 300, chunk_size=1, interval=0.01))

    async def consume():
        async for _ in get_provider().stream(ask()):
            pass

    task = asyncio.create_task(consume())
    await asyncio.sleep(0.3)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    for _ in range(100):
        if await LLMCall.objects.aexists():
            break
        await asyncio.sleep(0.02)
    assert (await LLMCall.objects.aget()).outcome == "cancelled"


async def test_llm_audit_dir_gets_one_json_file_per_call(fake_openai, settings, tmp_path):
    settings.LLM = {**settings.LLM, "AUDIT_DIR": str(tmp_path)}
    await get_provider().complete(ask())
    await get_provider().embed(["a", "b"])

    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    records = [json.loads(f.read_text()) for f in files]
    assert {r["kind"] for r in records} == {"chat", "embeddings"}
    chat = next(r for r in records if r["kind"] == "chat")
    assert chat["id"] == (await LLMCall.objects.aget(kind="chat")).pk
    assert chat["result"]["text"] == "ok"


async def test_logs_cut_prompt_and_output_at_1500_characters(fake_openai, caplog):
    fake_openai.script(Reply.text("b" * 4000, chunk_size=500))
    with caplog.at_level(logging.DEBUG, logger="llm"):
        await get_provider().complete(ask("a" * 5000))
    prompt_line = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("prompt: "))
    output_line = next(r.getMessage() for r in caplog.records if r.getMessage().startswith("output: "))
    assert "a" * 1400 in prompt_line and "a" * 1600 not in prompt_line
    assert output_line.startswith("output: " + "b" * 1500 + "... [2500 more characters]")


def test_the_admin_lists_calls_with_filters(admin_client, fake_openai):
    asyncio.run(get_provider().complete(ask()))
    LLMCall.objects.create(provider="gigachat", model="GigaChat", outcome="error", latency_ms=1.0, prompt_name="router_intent")

    changelist = reverse("admin:llm_llmcall_changelist")
    everything = admin_client.get(changelist).context["cl"].result_list
    assert sorted(call.provider for call in everything) == ["gigachat", "openai"]
    only_errors = admin_client.get(changelist, {"outcome__exact": "error"}).context["cl"].result_list
    assert [call.provider for call in only_errors] == ["gigachat"]
    by_prompt = admin_client.get(changelist, {"prompt_name": "project_answer"}).context["cl"].result_list
    assert [call.provider for call in by_prompt] == ["openai"]
    detail = admin_client.get(reverse("admin:llm_llmcall_change", args=[LLMCall.objects.get(provider="openai").pk]))
    assert "[DONE]" in detail.content.decode()


def test_replay_reparses_the_recorded_stream_without_the_provider(fake_openai):
    fake_openai.script(Reply.tool_call("search", {"query": "RetryPolicy"}, text="Looking. "))
    asyncio.run(get_provider().complete(ask()))
    record = LLMCall.objects.get()
    requests_before = len(fake_openai.requests)

    out = StringIO()
    call_command("llm_replay", str(record.pk), stdout=out)
    printed = out.getvalue()
    assert "Looking. " in printed
    assert 'tool call: search({"query": "RetryPolicy"})' in printed
    assert "matches the recorded events: yes" in printed
    assert len(fake_openai.requests) == requests_before


def test_replay_reads_audit_files_too(fake_openai, settings, tmp_path):
    settings.LLM = {**settings.LLM, "AUDIT_DIR": str(tmp_path)}
    fake_openai.script(Reply.text("from the file"))
    asyncio.run(get_provider().complete(ask()))
    out = StringIO()
    call_command("llm_replay", str(next(tmp_path.glob("*.json"))), stdout=out)
    assert "from the file" in out.getvalue()


def test_replay_can_resend_the_request_to_another_provider(fake_openai):
    asyncio.run(get_provider().complete(ask()))
    record = LLMCall.objects.get()
    out = StringIO()
    call_command("llm_replay", str(record.pk), "--provider", "offline", stdout=out)
    assert NO_MODEL_TEXT in out.getvalue()
    assert LLMCall.objects.filter(provider="offline", prompt_name="project_answer").exists()


def test_replay_says_why_it_cannot_replay(fake_openai):
    with pytest.raises(CommandError, match="no LLM call with id 999"):
        call_command("llm_replay", "999")
    asyncio.run(get_provider().embed(["x"]))
    with pytest.raises(CommandError, match="only chat calls"):
        call_command("llm_replay", str(LLMCall.objects.get().pk))


def test_records_join_consecutive_text_events_but_keep_every_other_event_in_place():
    events = [
        {"type": "text", "text": "a"},
        {"type": "text", "text": "b"},
        {"type": "tool_call", "tool_call": {"id": "1", "name": "search", "arguments": {}}},
        {"type": "text", "text": "c"},
        {"type": "text", "text": "d", "model": "m"},
        {"type": "done", "finish_reason": "stop"},
    ]
    assert audit.merge_text_events(events) == [
        {"type": "text", "text": "ab"},
        events[2],
        events[3],
        events[4],
        events[5],
    ]


async def test_audit_files_are_readable_by_the_server_user_only(fake_openai, settings, tmp_path):
    folder = tmp_path / "audit"
    settings.LLM = {**settings.LLM, "AUDIT_DIR": str(folder)}
    await get_provider().complete(ask())

    (record,) = folder.glob("*.json")
    assert folder.stat().st_mode & 0o777 == 0o700
    assert record.stat().st_mode & 0o777 == 0o600


async def test_forgetting_a_correlation_deletes_its_rows_and_files_only(fake_openai, settings, tmp_path):
    settings.LLM = {**settings.LLM, "AUDIT_DIR": str(tmp_path)}
    for correlation in ("message:1", "message:2"):
        token = audit.correlation.set(correlation)
        try:
            await get_provider().complete(ask())
        finally:
            audit.correlation.reset(token)
    kept = await LLMCall.objects.aget(correlation_id="message:2")

    from asgiref.sync import sync_to_async

    assert await sync_to_async(audit.forget)(["message:1", "message:3"]) == 1

    assert [call.pk async for call in LLMCall.objects.all()] == [kept.pk]
    assert [json.loads(f.read_text())["id"] for f in tmp_path.glob("*.json")] == [kept.pk]


async def test_the_record_says_which_form_of_structured_output_the_server_took(fake_openai):
    fake_openai.refused_formats = {"json_schema"}
    schema = {"name": "intent", "schema": {"type": "object", "properties": {"intent": {"type": "string"}}}}
    request = ask(model="local-audit", model_params={"json_schema": schema})

    await get_provider().complete(request)
    await get_provider().complete(request)

    first, second = [call async for call in LLMCall.objects.order_by("id")]
    assert first.wire_request["structured_output"] == {"mode": "json_object", "refused": ["json_schema"]}
    assert first.wire_request["json"]["response_format"]["type"] == "json_object"
    assert second.wire_request["structured_output"] == {"mode": "json_object", "refused": []}
    assert first.retries == second.retries == 0
