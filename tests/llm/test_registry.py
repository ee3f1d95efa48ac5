"""Finding providers by name, the offline default, and shared instances."""

from __future__ import annotations

import copy

import pytest

from llm.providers.offline import NO_MODEL_TEXT, OfflineProvider
from llm.providers.openai import OpenAIProvider
from llm.registry import close_providers, get_provider
from llm.retry import NotConfigured
from llm.types import ChatRequest, Message

pytestmark = pytest.mark.usefixtures("without_audit_rows")


def unconfigured(settings_llm):
    llm = copy.deepcopy(settings_llm)
    llm["PROVIDER"] = "auto"
    llm["PROVIDERS"]["gigachat"]["TOKEN"] = ""
    llm["PROVIDERS"]["openai"]["API_KEY"] = ""
    llm["PROVIDERS"]["openai"]["BASE_URL"] = ""
    llm["PROVIDERS"]["gemini"]["API_KEY"] = ""
    return llm


def test_auto_falls_back_to_offline_when_nothing_is_configured(settings):
    settings.LLM = unconfigured(settings.LLM)
    assert isinstance(get_provider(), OfflineProvider)


def test_auto_picks_an_openai_compatible_server_given_only_its_url(settings):
    llm = unconfigured(settings.LLM)
    llm["PROVIDERS"]["openai"]["BASE_URL"] = "http://127.0.0.1:11434/v1"
    settings.LLM = llm
    assert isinstance(get_provider(), OpenAIProvider)
    assert get_provider().base_url == "http://127.0.0.1:11434/v1"


@pytest.mark.parametrize(
    ("configured", "expected"),
    [
        ({"gigachat": {"TOKEN": "key"}, "openai": {"API_KEY": "sk"}, "gemini": {"API_KEY": "g"}}, "gigachat"),
        ({"openai": {"API_KEY": "sk"}, "gemini": {"API_KEY": "g"}}, "openai"),
        ({"gemini": {"API_KEY": "g"}}, "gemini"),
    ],
)
def test_auto_picks_the_first_configured_of_gigachat_openai_gemini(settings, configured, expected):
    llm = unconfigured(settings.LLM)
    for name, values in configured.items():
        llm["PROVIDERS"][name].update(values)
    settings.LLM = llm
    assert get_provider().name == expected


def test_one_instance_is_shared_until_the_settings_change(settings):
    settings.LLM = unconfigured(settings.LLM)
    first = get_provider()
    assert get_provider() is first
    assert get_provider("offline") is first
    llm = copy.deepcopy(settings.LLM)
    llm["PROVIDERS"]["offline"]["CONTEXT_WINDOWS"]["main"] = 4096
    settings.LLM = llm
    assert get_provider() is not first
    assert get_provider().context_window() == 4096


def test_an_unknown_provider_name_is_refused():
    with pytest.raises(ValueError, match="unknown provider"):
        get_provider("claude-cli")


def test_context_windows_come_from_settings_per_purpose(settings):
    llm = copy.deepcopy(settings.LLM)
    llm["PROVIDERS"]["openai"]["CONTEXT_WINDOWS"] = {"main": 64000, "summarization": 16000}
    settings.LLM = llm
    provider = get_provider("openai")
    assert provider.context_window("main") == 64000
    assert provider.context_window("summarization") == 16000


async def test_the_offline_provider_says_no_model_is_configured_and_invents_nothing(settings):
    settings.LLM = unconfigured(settings.LLM)
    provider = get_provider()
    question = ChatRequest(messages=(Message("user", "What does rag/intake.py do?"),))
    events = [event async for event in provider.stream(question)]

    assert [e.type for e in events] == ["text", "usage", "done"]
    assert events[-1].text == NO_MODEL_TEXT
    assert "No language model is configured" in events[-1].text
    assert "intake" not in events[-1].text
    assert provider.generates_text is False
    assert provider.supports_embeddings is False
    with pytest.raises(NotConfigured):
        await provider.embed(["text"])
    assert await provider.count_tokens(question.messages) > 0
    await close_providers()
