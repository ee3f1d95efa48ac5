from __future__ import annotations

from django.urls import reverse

from llm.conversation.store import ConversationSummary


def test_the_admin_lists_summaries_read_only(admin_client):
    summary = ConversationSummary.objects.create(
        key="k" * 64, session_key="chat-session:7", covered_messages=12, text="They discussed the login view.", model="m"
    )
    changelist = admin_client.get(reverse("admin:llm_conversationsummary_changelist"), {"q": "chat-session:7"})
    assert list(changelist.context["cl"].result_list) == [summary]
    detail = admin_client.get(reverse("admin:llm_conversationsummary_change", args=[summary.pk]))
    assert detail.status_code == 200
    assert b"They discussed the login view." in detail.content
    assert b'name="text"' not in detail.content
    assert admin_client.get(reverse("admin:llm_conversationsummary_add")).status_code == 403
