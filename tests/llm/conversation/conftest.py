"""A small-window OpenAI-compatible model on the local fake server, with a separate summarization model.

The fake answers by model name: the summarization model returns a summary
that names the span it was given (so tests can see which messages a request
replaced), the main model a fixed-length answer. ``DialogModels`` lets a test
slow either one down.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from tests.llm.fakes import FakeProviderServer, RecordedRequest, Reply, fake_llm_server  # noqa: F401

MAIN_MODEL = "dialog-main"
SUMMARY_MODEL = "dialog-summarizer"
WINDOW = 2000
SYSTEM_PROMPT = "You answer questions about a test repository."


@dataclass
class DialogModels:
    server: FakeProviderServer
    summary_delay: float = 0.0
    summary_fails: bool = False
    answer_delay: float = 0.0
    answer_interval: float = 0.0
    answer_text: str = (
        "Here is an answer with enough words to take some room in the window of the model; "
        "it names a file, `app/handlers.py:10-42`, and says what the handler does with its input."
    )

    def reply(self, request: RecordedRequest) -> Reply:
        body = request.json or {}
        if body.get("model") == SUMMARY_MODEL and self.summary_fails:
            return Reply.error(400, "summaries are switched off", delay=self.summary_delay)
        if body.get("model") == SUMMARY_MODEL:
            transcript = body["messages"][-1]["content"]
            numbers = [int(n) for n in re.findall(r"Question (\d+):", transcript)]
            span = f"questions {min(numbers)}-{max(numbers)}" if numbers else "no questions"
            return Reply.text(f"SUMMARY of {span}.", delay=self.summary_delay)
        return Reply.text(self.answer_text, chunk_size=16, delay=self.answer_delay, interval=self.answer_interval)

    def main_requests(self) -> list[RecordedRequest]:
        return [r for r in self.server.chat_requests if (r.json or {}).get("model") == MAIN_MODEL]

    def summary_requests(self) -> list[RecordedRequest]:
        return [r for r in self.server.chat_requests if (r.json or {}).get("model") == SUMMARY_MODEL]


@pytest.fixture
def dialog_models(fake_llm_server: FakeProviderServer, settings) -> Iterator[DialogModels]:  # noqa: F811
    llm = fake_llm_server.llm_settings("openai")
    openai = llm["PROVIDERS"]["openai"]
    openai["MODELS"] = {**openai.get("MODELS", {}), "main": MAIN_MODEL, "summarization": SUMMARY_MODEL}
    openai["CONTEXT_WINDOWS"] = {"main": WINDOW, "summarization": 8000}
    llm["CONVERSATION"] = {**llm.get("CONVERSATION", {}), "RECENT_RATIO": 0.05, "STRUCTURED": False}
    # Dozens of turns per test: the audit rows of every call would only slow them down.
    llm["AUDIT"] = False
    settings.LLM = llm
    models = DialogModels(server=fake_llm_server)
    fake_llm_server.fallback = models.reply
    yield models


def question(number: int) -> str:
    return f"Question {number}: how does part {number} of the repository handle its input?"
