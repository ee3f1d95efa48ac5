"""How a stored message is shown: its time in the site's time zone."""

from __future__ import annotations

from datetime import UTC, datetime

from django.template.loader import render_to_string

from chat.models import ChatSession, Message
from chat.presentation import message_context


def test_a_message_shows_when_it_was_written_in_the_sites_time_zone(owner, settings):
    settings.TIME_ZONE = "Europe/Moscow"
    chat = ChatSession.objects.create(owner=owner, title="time")
    message = Message.objects.create(session=chat, role=Message.Role.USER, content="hi")
    Message.objects.filter(pk=message.pk).update(created_at=datetime(2026, 3, 7, 21, 5, 9, tzinfo=UTC))
    message.refresh_from_db()

    html = render_to_string("chat/partials/message.html", {"m": message_context(message, None)})

    assert '<time datetime="2026-03-08T00:05:09+03:00" data-local="datetime">Mar 8, 00:05</time>' in html


def test_a_message_shows_its_thinking_tokens_beside_its_output_tokens(owner):
    chat = ChatSession.objects.create(owner=owner, title="thinking")
    message = Message.objects.create(
        session=chat, role=Message.Role.ASSISTANT, content="It is in views.py.",
        metrics={"latency_ms": 900, "tokens_in": 40, "tokens_out": 90, "tokens_thinking": 70},
    )

    html = render_to_string("chat/partials/message.html", {"m": message_context(message, None)})

    assert "40 in / 90 out tokens (70 thinking)" in html
