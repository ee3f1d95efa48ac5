"""Providers by name, one shared instance per process.

``get_provider()`` returns the active provider from ``settings.LLM["PROVIDER"]``;
``"auto"`` picks the first configured of gigachat, openai and gemini, else
offline. Instances are rebuilt when ``settings.LLM`` changes (tests override
it), and ``close_providers()`` closes their HTTP clients on shutdown.
"""

from __future__ import annotations

import logging
import threading
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver

from llm.providers.base import Provider
from llm.providers.gemini import GeminiProvider
from llm.providers.gigachat import GigaChatProvider
from llm.providers.offline import OfflineProvider
from llm.providers.openai import OpenAIProvider
from llm.retry import RetryPolicy

logger = logging.getLogger("llm")

PROVIDERS: dict[str, type[Provider]] = {
    "gigachat": GigaChatProvider,
    "openai": OpenAIProvider,
    "gemini": GeminiProvider,
    "offline": OfflineProvider,
}
AUTO_ORDER = ("gigachat", "openai", "gemini")

_instances: dict[str, Provider] = {}
_lock = threading.Lock()


def retry_policy_from_settings() -> RetryPolicy:
    llm = settings.LLM
    return RetryPolicy(
        max_attempts=int(llm.get("MAX_RETRIES", 3)) + 1,
        initial_interval=float(llm.get("RETRY_INITIAL_INTERVAL", 0.5)),
        max_interval=float(llm.get("RETRY_MAX_INTERVAL", 30.0)),
    )


def build_provider(name: str, config: dict[str, Any] | None = None, **kwargs: Any) -> Provider:
    """A new, unshared provider (for replay against another provider, or a test transport)."""
    try:
        provider_class = PROVIDERS[name]
    except KeyError:
        raise ValueError(f"unknown provider {name!r}; known: {', '.join(PROVIDERS)}") from None
    if config is None:
        config = settings.LLM.get("PROVIDERS", {}).get(name, {})
    kwargs.setdefault("retry_policy", retry_policy_from_settings())
    return provider_class(config, **kwargs)


def active_provider_name() -> str:
    chosen = settings.LLM.get("PROVIDER", "auto")
    if chosen != "auto":
        return chosen
    for name in AUTO_ORDER:
        if build_provider(name).is_configured():
            return name
    return "offline"


def get_provider(name: str | None = None) -> Provider:
    """The shared provider ``name``; None means the active one from settings."""
    resolved = active_provider_name() if name in (None, "auto") else name
    with _lock:
        provider = _instances.get(resolved)
        if provider is None:
            provider = build_provider(resolved)
            _instances[resolved] = provider
    return provider


async def close_providers() -> None:
    """Close the shared providers' HTTP clients (call on shutdown, from the serving loop)."""
    with _lock:
        providers = list(_instances.values())
        _instances.clear()
    for provider in providers:
        await provider.aclose()


@receiver(setting_changed)
def _forget_providers(*, setting: str, **kwargs: Any) -> None:
    if setting == "LLM":
        with _lock:
            _instances.clear()
