"""The declarative retry policy and which provider errors it retries."""

from __future__ import annotations

import pytest

from llm.retry import (
    AuthenticationError,
    LLMError,
    ProviderConnectionError,
    ProviderHTTPError,
    ProviderTimeout,
    RetryPolicy,
    parse_retry_after,
)


@pytest.mark.parametrize("status", [408, 409, 429, 500, 502, 503, 504, 529])
def test_transient_statuses_are_retryable(status):
    assert ProviderHTTPError("x", status=status).retryable


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_client_errors_are_permanent(status):
    assert not ProviderHTTPError("x", status=status).retryable


def test_timeouts_and_connection_errors_are_retryable_and_auth_errors_are_not():
    assert ProviderTimeout().retryable and ProviderConnectionError().retryable
    assert not AuthenticationError("refused").retryable


def test_backoff_grows_by_the_factor_and_stops_at_the_max_interval():
    policy = RetryPolicy(initial_interval=0.5, backoff_factor=2.0, max_interval=3.0, jitter=False)
    assert [policy.delay(attempt) for attempt in (1, 2, 3, 4)] == [0.5, 1.0, 2.0, 3.0]


def test_jitter_stays_within_half_and_the_full_interval():
    policy = RetryPolicy(initial_interval=1.0, jitter=True)
    delays = {policy.delay(1) for _ in range(50)}
    assert all(0.5 <= d <= 1.0 for d in delays) and len(delays) > 1


def test_retry_after_wins_but_is_capped():
    policy = RetryPolicy(initial_interval=0.1, max_interval=10.0, jitter=False)
    assert policy.delay(1, ProviderHTTPError("x", status=429, retry_after=4.0)) == 4.0
    assert policy.delay(1, ProviderHTTPError("x", status=429, retry_after=120.0)) == 10.0


def test_retry_after_accepts_seconds_and_http_dates():
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT") == 0.0
    assert parse_retry_after("soon") is None


async def test_run_retries_provider_errors_until_success():
    attempts = []
    waits = []

    async def operation():
        attempts.append(1)
        if len(attempts) < 3:
            raise ProviderHTTPError("busy", status=503, provider="openai")
        return "answer"

    async def no_sleep(seconds):
        waits.append(seconds)

    policy = RetryPolicy(max_attempts=4, initial_interval=0.2, jitter=False)
    assert await policy.run(operation, sleep=no_sleep) == "answer"
    assert len(attempts) == 3 and waits == [0.2, 0.4]


async def test_run_stops_at_a_permanent_error_and_after_the_last_attempt():
    calls = []

    async def bad_request():
        calls.append(1)
        raise ProviderHTTPError("bad", status=400)

    async def no_sleep(seconds):
        pass

    with pytest.raises(ProviderHTTPError):
        await RetryPolicy(max_attempts=5).run(bad_request, sleep=no_sleep)
    assert len(calls) == 1

    async def always_down():
        calls.append(1)
        raise ProviderConnectionError()

    calls.clear()
    with pytest.raises(LLMError):
        await RetryPolicy(max_attempts=3).run(always_down, sleep=no_sleep)
    assert len(calls) == 3


async def test_an_error_the_policy_gave_up_on_says_how_many_attempts_were_made():
    async def always_down():
        raise ProviderHTTPError("down", status=503)

    async def bad_request():
        raise ProviderHTTPError("bad", status=400)

    async def no_sleep(seconds):
        pass

    with pytest.raises(LLMError) as down:
        await RetryPolicy(max_attempts=3).run(always_down, sleep=no_sleep)
    with pytest.raises(LLMError) as refused:
        await RetryPolicy(max_attempts=3).run(bad_request, sleep=no_sleep)

    assert (down.value.attempts, refused.value.attempts) == (3, 1)

    # A policy around the one that gave up (a graph node's) does not recount the calls.
    with pytest.raises(LLMError) as nested:
        await RetryPolicy(max_attempts=1).run(lambda: RetryPolicy(max_attempts=3).run(always_down, sleep=no_sleep))
    assert nested.value.attempts == 3
    assert ProviderHTTPError("never run", status=503).attempts is None


async def test_a_stream_is_opened_again_only_when_it_failed_before_its_first_item():
    opened = []

    def flaky(fail_after: int):
        async def items():
            opened.append(1)
            for number in range(3):
                if len(opened) < 3 and number == fail_after:
                    raise ProviderHTTPError("busy", status=503)
                yield number

        return items

    async def no_sleep(seconds):
        pass

    policy = RetryPolicy(max_attempts=3, jitter=False)
    assert [item async for item in policy.stream(flaky(fail_after=0), sleep=no_sleep)] == [0, 1, 2]
    assert len(opened) == 3

    opened.clear()
    received = []
    with pytest.raises(ProviderHTTPError) as broken:
        async for item in policy.stream(flaky(fail_after=1), sleep=no_sleep):
            received.append(item)
    assert received == [0] and len(opened) == 1 and broken.value.attempts == 1
