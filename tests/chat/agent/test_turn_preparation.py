"""A turn's preparation reads the database only when the chat has a repository."""

from __future__ import annotations

import asyncio

import pytest

from chat.agent.agent import prepare_turn
from tests.chat.agent.conftest import make_turn


@pytest.mark.django_db
def test_a_chat_without_a_repository_is_prepared_without_the_database(django_assert_num_queries):
    async def prepare_in_the_event_loop():
        # Django refuses database calls from a running event loop, so any read here would fail.
        return prepare_turn(make_turn("What is a closure?", None))

    with django_assert_num_queries(0):
        prepared = asyncio.run(prepare_in_the_event_loop())
    assert prepared.services.toolbox is None and prepared.services.repository_name == ""
    assert prepared.context.input == "What is a closure?"
    assert prepared.context.state == {"has_repository": False, "index_ready": False}


@pytest.mark.django_db
def test_a_chat_with_a_repository_reads_it(owner, django_assert_max_num_queries):
    from rag.models import Repository

    repository = Repository.objects.create(owner=owner, name="shop")
    with django_assert_max_num_queries(5):
        prepared = prepare_turn(make_turn("Where is checkout?", repository))
    assert prepared.services.repository_name == "shop"
    assert prepared.context.state == {"has_repository": True, "index_ready": False}
