"""pytest fixtures around the fake model server of ``llm.benchmarks.fake_server``.

Quick use from any test package::

    from tests.llm.fakes import Reply, fake_llm_server, fake_openai  # noqa: F401 (fixtures)

    async def test_it_streams(fake_openai):          # settings.LLM now points at the fake
        fake_openai.script(Reply.text("Hello there", chunk_size=3, interval=0.01))
        provider = get_provider()                    # the OpenAI adapter, base URL = the fake
        ...
        assert fake_openai.chat_requests[-1].json["messages"][-1]["content"] == "..."

Fixtures (import them into your test module or conftest):

- ``fake_llm_server``: a started ``FakeProviderServer``.
- ``fake_openai``, ``fake_gigachat``, ``fake_gemini``: the same server with
  ``settings.LLM`` switched to that provider (through pytest-django's
  ``settings`` fixture, so the provider registry is rebuilt and restored).

``Reply``, ``RecordedRequest`` and ``FakeProviderServer`` are the server's own,
handed on here; their documentation is in ``llm/benchmarks/fake_server.py``.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from llm.benchmarks.fake_server import FakeProviderServer, RecordedRequest, Reply

__all__ = ["FakeProviderServer", "RecordedRequest", "Reply", "fake_gemini", "fake_gigachat", "fake_llm_server", "fake_openai"]


@pytest.fixture
def fake_llm_server() -> Iterator[FakeProviderServer]:
    with FakeProviderServer() as server:
        yield server


@pytest.fixture
def fake_openai(fake_llm_server: FakeProviderServer, settings) -> FakeProviderServer:
    settings.LLM = fake_llm_server.llm_settings("openai")
    return fake_llm_server


@pytest.fixture
def fake_gigachat(fake_llm_server: FakeProviderServer, settings) -> FakeProviderServer:
    settings.LLM = fake_llm_server.llm_settings("gigachat")
    return fake_llm_server


@pytest.fixture
def fake_gemini(fake_llm_server: FakeProviderServer, settings) -> FakeProviderServer:
    settings.LLM = fake_llm_server.llm_settings("gemini")
    return fake_llm_server
