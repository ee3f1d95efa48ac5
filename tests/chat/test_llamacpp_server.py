"""A chat against a separate server process that answers as llama.cpp's OpenAI-compatible server does.

That server refuses ``response_format: {"type": "json_schema"}`` with a 500 whose body is a
validation error, and takes ``json_object`` with a ``schema``. The fake provider server runs in its
own process in that mode (``python -m llm.benchmarks.fake_server --as llama.cpp``); the product talks to it over HTTP.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from rag.models import Repository
from tests.chat.conftest import frames_until_done, socket

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def llamacpp_server() -> Iterator[str]:
    process = subprocess.Popen(
        [sys.executable, "-m", "llm.benchmarks.fake_server", "--as", "llama.cpp", "--answer", '{"intent": "general"}'],
        cwd=ROOT, stdout=subprocess.PIPE, text=True,
    )
    try:
        line = process.stdout.readline()
        assert line.startswith("port "), f"the fake server did not start: {line!r}"
        yield f"http://127.0.0.1:{int(line.split()[1])}"
    finally:
        process.terminate()
        process.wait(10)


def sent_chat_requests(url: str) -> list[dict]:
    return [r["json"] for r in httpx.get(f"{url}/_fake/requests").json() if r["path"] == "/v1/chat/completions"]


async def test_one_refused_format_then_every_question_goes_straight_to_json_object_and_answers_carry_max_tokens(
    llamacpp_server, owner_chat, owner_cookie, settings
):
    llm = {**settings.LLM, "PROVIDER": "openai", "RETRY_INITIAL_INTERVAL": 0.01}
    openai = {**llm["PROVIDERS"]["openai"], "BASE_URL": f"{llamacpp_server}/v1", "API_KEY": "",
              "CONTEXT_WINDOWS": {"main": 4096, "summarization": 4096}}
    settings.LLM = {**llm, "PROVIDERS": {**llm["PROVIDERS"], "openai": openai}}
    # The model routes the questions of a chat with a repository (here one not indexed yet).
    owner_chat.repository = await Repository.objects.acreate(owner_id=owner_chat.owner_id, name="shop")
    await owner_chat.asave(update_fields=["repository"])
    communicator = socket(owner_chat.pk, owner_cookie)
    await communicator.connect()
    for question in ("where is the login view?", "and the logout view?"):
        await communicator.send_json_to({"action": "send", "text": question})
        await frames_until_done(communicator)
    await communicator.disconnect()

    sent = sent_chat_requests(llamacpp_server)
    formats = [(body.get("response_format") or {}).get("type") for body in sent]
    # Router refused once, asked again with json_object (and its schema), answer; second question: router, answer.
    assert formats == ["json_schema", "json_object", None, "json_object", None]
    assert "schema" in sent[1]["response_format"]
    answering = [body for body in sent if "response_format" not in body]
    assert len(answering) == 2
    assert all(0 < body["max_tokens"] < 4096 for body in answering)
