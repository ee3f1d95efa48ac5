"""Fixtures of the LLM layer's tests."""

from __future__ import annotations

import asyncio

import pytest
from asgiref.sync import sync_to_async
from django.db import connections

from tests.llm.fakes import fake_gemini, fake_gigachat, fake_llm_server, fake_openai  # noqa: F401 (fixtures)


@pytest.fixture(autouse=True)
def close_async_orm_connections():
    """Close the connection the async ORM opened in its worker thread, so the test database can be dropped."""
    yield
    asyncio.run(sync_to_async(connections.close_all, thread_sensitive=True)())


@pytest.fixture
def without_audit_rows(settings):
    """Adapter tests need no database: calls are logged but not stored.

    Request it before the fake-server fixtures (they copy ``settings.LLM``).
    """
    settings.LLM = {**settings.LLM, "AUDIT": False}
