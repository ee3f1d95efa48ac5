"""The stored side of chats: the partial text written while answers stream, what deleting takes with it."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from django.db import connection
from django.http import Http404

from chat import services
from chat.models import ChatSession, Message
from llm.models import LLMCall
from rag.models import Repository
from rag.services import delete_repository
from tests.factories import make_user


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


def test_a_question_and_its_answer_are_stored_together_and_the_first_question_names_the_chat(owner):
    chat = ChatSession.objects.create(owner=owner)

    session, question, answer = services.start_turn(owner, chat.pk, "Where are  orders\npriced?", max_running=3)

    assert session.pk == chat.pk and session.title == "Where are orders priced?"
    assert session.last_activity_at > chat.last_activity_at
    stored = list(Message.objects.filter(session=chat).order_by("id"))
    assert [(m.pk, m.role, m.status, m.content) for m in stored] == [
        (question.pk, "user", "complete", "Where are  orders\npriced?"),
        (answer.pk, "assistant", "streaming", ""),
    ]
    assert [m.uuid for m in stored] == [question.uuid, answer.uuid]
    assert stored[1].metrics == {} and stored[1].citations == [] and stored[1].is_safe is None
    services.start_turn(owner, chat.pk, "A second question", max_running=3)
    chat.refresh_from_db()
    assert chat.title == "Where are orders priced?"


def test_another_users_chat_or_an_inactive_owner_stores_nothing(owner):
    chat = ChatSession.objects.create(owner=owner, title="mine")
    stranger = make_user("stranger")

    with pytest.raises(Http404):
        services.start_turn(stranger, chat.pk, "let me in", max_running=3)
    owner.is_active = False
    owner.save()
    with pytest.raises(Http404):
        services.start_turn(owner, chat.pk, "still here?")

    assert not Message.objects.filter(session=chat).exists()


@pytest.mark.django_db(transaction=True)
def test_the_cap_on_running_answers_holds_for_questions_asked_at_once_on_many_connections():
    owner = make_user("owner")
    chats = [ChatSession.objects.create(owner=owner) for _ in range(12)]
    start = threading.Barrier(len(chats))

    def ask(chat: ChatSession) -> str:
        try:
            start.wait()
            services.start_turn(owner, chat.pk, "at once", max_running=3)
            return "started"
        except services.TooManyRunningAnswers:
            return "refused"
        finally:
            connection.close()

    with ThreadPoolExecutor(len(chats)) as pool:
        outcomes = list(pool.map(ask, chats))

    assert outcomes.count("started") == 3
    running = Message.objects.filter(session__owner=owner, status=Message.Status.STREAMING)
    assert running.count() == 3
    # A refused question leaves nothing: neither message, nor a new title.
    assert Message.objects.filter(session__owner=owner).count() == 6
    assert ChatSession.objects.filter(owner=owner, title="at once").count() == 3
