from __future__ import annotations

import pytest

from chat.load_bench import format_report, run_load
from chat.models import ChatSession


@pytest.mark.django_db(transaction=True)
def test_the_load_run_delivers_every_token_of_every_chat_and_cleans_up():
    report = run_load(chats=3, tokens=12, rate=200.0, first_token_delay=0.05)
    assert report.failed_chats == []
    assert report.delivered == 36 and report.dropped == 0 and report.out_of_order == 0
    assert report.stored_complete == 3
    assert len(report.added_ttft_ms) == 3
    assert all(model >= 50 for model in report.model_ttft_ms)
    assert not ChatSession.objects.exists()
    text = format_report(report)
    assert "dropped frames                  0" in text and "server-added TTFT" in text
