"""The stored side of chats: the partial text written while answers stream, what deleting takes with it."""

from __future__ import annotations

from chat import services
from chat.models import ChatSession, Message
from llm.models import LLMCall
from rag.models import Repository
from rag.services import delete_repository


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


def test_deleting_a_chat_or_its_repository_deletes_the_records_of_its_model_calls(owner):
    repository = Repository.objects.create(owner=owner, name="shop")
    on_repository = ChatSession.objects.create(owner=owner, title="About the shop", repository=repository)
    deleted_chat = ChatSession.objects.create(owner=owner, title="To delete")
    kept_chat = ChatSession.objects.create(owner=owner, title="Kept")
    answers = {
        chat.pk: Message.objects.create(session=chat, role="assistant", content="answer")
        for chat in (on_repository, deleted_chat, kept_chat)
    }
    for chat_id, answer in answers.items():
        LLMCall.objects.create(
            provider="openai", correlation_id=services.correlation_id(answer.pk), outcome="ok", latency_ms=1.0,
            request={"messages": [{"role": "user", "content": f"code of chat {chat_id}"}]},
        )

    services.delete_session(deleted_chat)
    delete_repository(repository)

    assert list(LLMCall.objects.values_list("correlation_id", flat=True)) == [
        services.correlation_id(answers[kept_chat.pk].pk)
    ]
