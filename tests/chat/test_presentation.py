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


def test_answers_of_the_same_text_link_their_own_verified_citations_in_their_own_repository(owner):
    # A finished answer's HTML is kept once rendered: the same words with other citations, or in another
    # repository's chat, are another answer.
    chat = ChatSession.objects.create(owner=owner, title="citations")
    text = "Discounts are applied in src/pricing.py:14-19."
    verified = Message.objects.create(
        session=chat, role=Message.Role.ASSISTANT, content=text,
        citations=[{"path": "src/pricing.py", "start_line": 14, "end_line": 19, "version": 3}],
    )
    unverified = Message.objects.create(session=chat, role=Message.Role.ASSISTANT, content=text, citations=[])

    first = render_to_string("chat/partials/message.html", {"m": message_context(verified, 7)})
    again = render_to_string("chat/partials/message.html", {"m": message_context(verified, 7)})
    elsewhere = render_to_string("chat/partials/message.html", {"m": message_context(verified, 8)})
    bare = render_to_string("chat/partials/message.html", {"m": message_context(unverified, 7)})

    assert first == again and "/repositories/7/source/src/pricing.py?start=14&amp;end=19&amp;at=3#L14" in first
    assert "/repositories/8/source/src/pricing.py?" in elsewhere and "/repositories/7/" not in elsewhere
    assert "src/pricing.py?start" not in bare and "src/pricing.py:14-19" in bare
