"""The stored side of answers: the partial text written while they stream."""

from __future__ import annotations

from chat import services
from chat.models import ChatSession, Message


def test_partial_texts_of_many_answers_are_stored_in_one_go_and_finished_answers_are_left_alone(owner):
    chat = ChatSession.objects.create(owner=owner, title="flush")
    running = [
        Message.objects.create(session=chat, role=Message.Role.ASSISTANT, status=Message.Status.STREAMING)
        for _ in range(3)
    ]
    finished = Message.objects.create(
        session=chat, role=Message.Role.ASSISTANT, status=Message.Status.COMPLETE, content="final text"
    )
    before = {m.pk: m.updated_at for m in running}
    texts = {
        running[0].pk: "plain",
        running[1].pk: "quotes ' \" and \\ back; -- not SQL",
        running[2].pk: "ünïcode ✓\nsecond line",
        finished.pk: "must not replace a finished answer",
    }

    services.save_partial_answers(texts)

    for message in running:
        message.refresh_from_db()
        assert message.content == texts[message.pk]
        assert message.status == Message.Status.STREAMING
        assert message.updated_at > before[message.pk]
    finished.refresh_from_db()
    assert finished.content == "final text"


def test_storing_no_partial_texts_touches_nothing(owner, django_assert_num_queries):
    with django_assert_num_queries(0):
        services.save_partial_answers({})
