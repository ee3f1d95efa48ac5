"""Typed provider errors and the declarative retry policy.

Errors say whether retrying can help; the policy decides how often and how
long to wait, honouring ``Retry-After`` when the provider sent one. The graph
engine uses the same policy type for per-node retries.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import aclosing
from dataclasses import dataclass
from typing import TypeVar

T = TypeVar("T")

RETRYABLE_STATUSES = frozenset({408, 409, 429, 500, 502, 503, 504})


class LLMError(Exception):
    """A failed provider call.

    ``retryable`` is False for errors that another attempt cannot fix (bad
    request, forbidden, validation); ``retry_after`` is the provider's own
    wait hint in seconds. ``attempts`` is how many times the call was made
    before giving up, set by the retry policy around the call (None: unknown).
    """

    def __init__(
        self,
        message: str,
        *,
        provider: str = "",
        status: int | None = None,
        retryable: bool = False,
        retry_after: float | None = None,
        provider_message: str = "",
    ) -> None:
        super().__init__(message)
        self.provider = provider
        self.status = status
        self.retryable = retryable
        self.retry_after = retry_after
        self.provider_message = provider_message
        self.attempts: int | None = None

    def __str__(self) -> str:
        parts = [super().__str__()]
        if self.status is not None:
            parts.append(f"(HTTP {self.status})")
        if self.provider_message:
            parts.append(f": {self.provider_message}")
        return " ".join(parts)


class ProviderTimeout(LLMError):
    def __init__(self, message: str = "the provider did not answer in time", **kwargs) -> None:
        kwargs.setdefault("retryable", True)
        super().__init__(message, **kwargs)


class ProviderConnectionError(LLMError):
    def __init__(self, message: str = "could not reach the provider", **kwargs) -> None:
        kwargs.setdefault("retryable", True)
        super().__init__(message, **kwargs)


class ProviderHTTPError(LLMError):
    """A non-2xx answer; retryable exactly for 408/409/429/5xx."""

    def __init__(self, message: str, *, status: int, **kwargs) -> None:
        kwargs.setdefault("retryable", status in RETRYABLE_STATUSES or status >= 500)
        super().__init__(message, status=status, **kwargs)


class AuthenticationError(LLMError):
    """Credentials refused (401 after a refresh, or a bad key)."""


class ModelRefusal(LLMError):
    """The model (or the provider's filter) declined to answer: a refusal, a safety stop.

    Never retried: the same request gets the same verdict. ``provider_message``
    carries the reason as the provider gave it.
    """

    def __init__(self, message: str = "the model declined to answer", **kwargs) -> None:
        kwargs["retryable"] = False
        super().__init__(message, **kwargs)


class ProviderProtocolError(LLMError):
    """The provider answered something that is not its wire format (garbage, a broken stream)."""


class NotConfigured(LLMError):
    """The provider lacks a required setting."""


def parse_retry_after(value: str | None) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds form; dates are rare for APIs)."""
    if not value:
        return None
    try:
        seconds = float(value.strip())
    except ValueError:
        from email.utils import parsedate_to_datetime
        from datetime import datetime, timezone

        try:
            when = parsedate_to_datetime(value)
        except (TypeError, ValueError):
            return None
        seconds = (when - datetime.now(timezone.utc)).total_seconds()
    return max(0.0, seconds)


def default_retry_on(exc: BaseException) -> bool:
    return isinstance(exc, LLMError) and exc.retryable


@dataclass(frozen=True)
class RetryPolicy:
    max_attempts: int = 3
    initial_interval: float = 0.5
    backoff_factor: float = 2.0
    max_interval: float = 30.0
    jitter: bool = True
    retry_on: Callable[[BaseException], bool] = default_retry_on

    def delay(self, attempt: int, exc: BaseException | None = None) -> float:
        """Seconds to wait after failed attempt number ``attempt`` (1-based)."""
        hinted = getattr(exc, "retry_after", None)
        if hinted is not None:
            return min(float(hinted), self.max_interval)
        interval = min(self.initial_interval * self.backoff_factor ** (attempt - 1), self.max_interval)
        if self.jitter:
            interval *= random.uniform(0.5, 1.0)
        return interval

    async def run(
        self,
        operation: Callable[[], Awaitable[T]],
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_retry: Callable[[int, BaseException, float], None] | None = None,
    ) -> T:
        """Call ``operation`` until it succeeds, a non-retryable error, or the attempts run out."""

        async def once() -> AsyncIterator[T]:
            yield await operation()

        async with aclosing(self.stream(once, sleep=sleep, on_retry=on_retry)) as results:
            return await anext(results)

    async def stream(
        self,
        open_stream: Callable[[], AsyncIterator[T]],
        *,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        on_retry: Callable[[int, BaseException, float], None] | None = None,
    ) -> AsyncIterator[T]:
        """The items of the stream ``open_stream`` opens; one that fails before its first item is opened again.

        A failure after an item was yielded is raised: what was read cannot be taken back.
        """
        attempt = 1
        while True:
            started = False
            try:
                async with aclosing(open_stream()) as items:
                    async for item in items:
                        started = True
                        yield item
                return
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if started or attempt >= self.max_attempts or not self.retry_on(exc):
                    if isinstance(exc, LLMError) and exc.attempts is None:
                        # The innermost policy counts the calls; an outer one (a graph node's) re-raising
                        # the same error counts runs of a node, not calls, and leaves the count alone.
                        exc.attempts = attempt
                    raise
                wait = self.delay(attempt, exc)
                if on_retry is not None:
                    on_retry(attempt, exc, wait)
                await sleep(wait)
                attempt += 1


NO_RETRY = RetryPolicy(max_attempts=1)
