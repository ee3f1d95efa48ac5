"""Admin pages people can read: message text in the list, JSON fields indented, trace steps in the order they started."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from chat.models import ChatSession, Message
from chat.presentation import steps_in_start_order
from llm.models import LLMCall
from tests.factories import PASSWORD

# As recorded: in the order they finished (the tool call inside the answer step first).
STEPS = [
    {"node": "router_intent", "depth": 0, "start_ms": 0.0, "duration_ms": 120.0, "detail": {}},
    {"node": "tool:search_code", "depth": 1, "start_ms": 300.0, "duration_ms": 40.0, "detail": {"tool": "search_code", "arguments": {"query": "login"}, "result": "3 hits"}},
    {"node": "project_qa", "depth": 0, "start_ms": 130.0, "duration_ms": 900.0, "detail": {}},
]


@pytest.fixture
def staff_client(client, staff_user):
    staff_user.is_superuser = True
    staff_user.save()
    client.login(username=staff_user.username, password=PASSWORD)
    return client


@pytest.fixture
def answer(owner):
    session = ChatSession.objects.create(owner=owner, title="Login questions")
    Message.objects.create(session=session, role=Message.Role.USER, content="Where is the   login view?\nIn which file?")
    return Message.objects.create(
        session=session, role=Message.Role.ASSISTANT, content="It is `login_view` in shop/views.py:4-7.", intent="project_qa",
        metrics={"ttft_ms": 120, "latency_ms": 900, "model": "m1", "conversation": {"handovers": 0}},
        citations=[{"path": "shop/views.py", "start_line": 4, "end_line": 7}], steps=STEPS,
    )


def test_steps_are_listed_in_the_order_they_started_outer_steps_first():
    assert [step["node"] for step in steps_in_start_order(STEPS)] == ["router_intent", "project_qa", "tool:search_code"]
    same_start = [{"node": "inner", "depth": 1, "start_ms": 5.0}, {"node": "outer", "depth": 0, "start_ms": 5.0}]
    assert [step["node"] for step in steps_in_start_order(same_start)] == ["outer", "inner"]
    old = [{"node": "b", "depth": 0}, {"node": "a", "depth": 0}]  # stored before start times were recorded
    assert steps_in_start_order(old) == old


def test_the_messages_list_shows_their_text(staff_client, answer):
    page = staff_client.get(reverse("admin:chat_message_changelist")).content.decode()
    assert "Where is the login view? In which file?" in page
    assert "It is `login_view` in shop/views.py:4-7." in page
    headers = re.findall(r'<th scope="col" class="(?:sortable )?column-(\w+)', page)
    assert headers == ["id", "text", "chat", "role", "state", "intent", "created_at"]


def test_a_message_page_shows_json_indented_and_the_trace_as_a_table_in_start_order(staff_client, answer):
    page = staff_client.get(reverse("admin:chat_message_change", args=[answer.pk])).content.decode()
    assert '<pre class="readable-json">{\n  &quot;' in page and "\n  &quot;ttft_ms&quot;: 120,\n" in page
    assert "<li><code>shop/views.py:4-7</code></li>" in page
    steps = re.findall(r"<td style='padding-left: [\d.]+em'><code>([^<]+)</code>", page)
    assert steps == ["router_intent", "project_qa", "tool:search_code"]
    assert "arguments: {&quot;query&quot;: &quot;login&quot;} · result: 3 hits" in page
    assert "css/admin.css" in page


def test_the_llm_calls_list_folds_its_figures_into_few_columns(staff_client):
    LLMCall.objects.create(
        provider="openai", model="gpt-x", kind="chat", prompt_name="answer", prompt_version=3, outcome="ok",
        latency_ms=812.4, ttft_ms=95.2, prompt_tokens=1200, completion_tokens=80, correlation_id="message:1",
    )
    page = staff_client.get(reverse("admin:llm_llmcall_changelist")).content.decode()
    headers = re.findall(r'<th scope="col" class="(?:sortable )?column-(\w+)', page)
    assert headers == ["created_at", "call", "prompt", "outcome", "latency", "tokens", "correlation_id"]
    assert "openai · gpt-x · chat" in page and "answer v3" in page and "812 ms (95 ms)" in page and "1200 / 80" in page


@pytest.mark.django_db
def test_replaced_messages_are_marked_and_filtered_in_the_admin(staff_client, answer):
    question = Message.objects.get(session=answer.session, role=Message.Role.USER)
    Message.objects.filter(pk=answer.pk).update(replaced_at=answer.created_at)
    url = reverse("admin:chat_message_changelist")

    replaced = staff_client.get(url, {"replaced": "yes"}).content.decode()
    shown = staff_client.get(url, {"replaced": "no"}).content.decode()

    assert "Complete (replaced)" in replaced and "It is `login_view`" in replaced and "Where is the login view?" not in replaced
    assert "Where is the login view?" in shown and "It is `login_view`" not in shown
    page = staff_client.get(reverse("admin:chat_message_change", args=[answer.pk])).content.decode()
    assert "Replaced at" in page
    assert "Replaced at" in staff_client.get(reverse("admin:chat_chatsession_change", args=[question.session_id])).content.decode()
