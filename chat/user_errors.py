"""Every error text the chat shows to a person, in one place.

Texts say what happened and what to do, never a stack trace or a provider's
raw message (those go to the logs and the LLM audit).
"""

from __future__ import annotations

from llm.retry import (
    AuthenticationError,
    LLMError,
    ModelRefusal,
    ProviderConnectionError,
    ProviderHTTPError,
    ProviderTimeout,
)

EMPTY_MESSAGE = "Type a question first."
MESSAGE_TOO_LONG = "That message is too long ({length} characters; the limit is {limit}). Shorten it and send again."
TOO_MANY_GENERATIONS = (
    "You already have {limit} answers being written. Wait for one to finish or stop it, then send again."
)
TOO_MANY_SOCKET_MESSAGES = "The page sent too many messages at once; the extra ones were ignored. Wait a moment."
SOCKET_MESSAGE_TOO_LONG = "That message is too long for the server to read. Shorten it and send again."
UNKNOWN_ACTION = "The page sent something the server does not understand. Reload the page."
PROVIDER_TIMEOUT = "The model did not answer in time. The text so far is kept; try again."
PROVIDER_UNREACHABLE = "The model could not be reached. The text so far is kept; try again in a moment."
PROVIDER_REFUSED_CREDENTIALS = "The model provider refused the configured credentials. An administrator must fix the key."
PROVIDER_RATE_LIMITED = "The model provider is busy (rate limited). The text so far is kept; try again in a minute."
MODEL_REFUSED = "The model declined to answer ({reason}). The text so far is kept; rephrase the question."
PROVIDER_SERVER_ERROR = "The model provider failed (HTTP {status}: {reason}){tries}. The text so far is kept; try again later."
PROVIDER_FAILED = "The model stopped with an error. The text so far is kept; try again."
STOPPED_BY_NEW_QUESTION = "Stopped: a new question was sent."
INTERRUPTED = "This answer was interrupted (the server stopped while writing it). The text so far is kept; ask again."
INTERNAL_ERROR = "Something went wrong while answering. The text so far is kept; try again."


def _reason(error: LLMError) -> str:
    """The provider's own words, cut short (they go on the page as text)."""
    reason = " ".join((error.provider_message or "no reason given").split())
    return reason if len(reason) <= 200 else f"{reason[:200]}..."


def _tries(error: LLMError) -> str:
    """How often the call was made, when the retry policy that gave up said so."""
    if error.attempts is None:
        return ", also on retrying"
    retries = error.attempts - 1
    if retries < 1:
        # Not retried (the answer had begun, or retries are off): say nothing of retrying.
        return ""
    return ", retried once" if retries == 1 else f", retried {retries} times"


def for_provider_error(error: Exception | None) -> str:
    if isinstance(error, ProviderTimeout):
        return PROVIDER_TIMEOUT
    if isinstance(error, ProviderConnectionError):
        return PROVIDER_UNREACHABLE
    if isinstance(error, AuthenticationError):
        return PROVIDER_REFUSED_CREDENTIALS
    if isinstance(error, ProviderHTTPError) and error.status == 429:
        return PROVIDER_RATE_LIMITED
    if isinstance(error, ModelRefusal):
        return MODEL_REFUSED.format(reason=_reason(error))
    if isinstance(error, ProviderHTTPError) and error.status >= 500:
        return PROVIDER_SERVER_ERROR.format(status=error.status, reason=_reason(error), tries=_tries(error))
    if isinstance(error, LLMError):
        return PROVIDER_FAILED
    return INTERNAL_ERROR
