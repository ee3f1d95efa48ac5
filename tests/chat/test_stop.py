"""Stop: an answer stops even when a library lost the cancellation that was to stop it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field

import pytest

from chat.streams import GenerationRegistry

# The registry stores running answers' text through the database pool while they run.
pytestmark = pytest.mark.django_db(transaction=True)


@dataclass(eq=False)
class Answer:
    session_id: int
    message_id: int = 0
    task: asyncio.Task | None = None
    stop_note: str = ""
    stored_length: int = 0
    stored_at: float = 0.0
    parts: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "".join(self.parts)


async def writes_on_after_its_first_cancellation(answer: Answer) -> str:
    lost = False
    while True:
        try:
            await asyncio.sleep(0.05)
        except asyncio.CancelledError:
            if lost:
                raise
            # As Python 3.11's wait_for loses a cancellation that arrives with its operation's result.
            lost = True
        answer.parts.append("word ")


async def stores_its_final_state_when_cancelled(answer: Answer) -> str:
    try:
        await asyncio.sleep(60)
    except asyncio.CancelledError:
        # Longer than the registry's checks: storing writes no text, so it is not cancelled again.
        await asyncio.sleep(2.5)
        return "stored"
    return "finished"


async def running(registry: GenerationRegistry, write: Callable[[Answer], Coroutine]) -> Answer:
    answer = Answer(session_id=1)
    answer.task = asyncio.create_task(write(answer))
    registry.add(answer)
    await asyncio.sleep(0.2)
    return answer


async def test_an_answer_that_lost_its_cancellation_and_writes_on_is_cancelled_again():
    registry = GenerationRegistry()
    answer = await running(registry, writes_on_after_its_first_cancellation)

    await asyncio.wait_for(registry.cancel(answer.session_id), timeout=10)

    assert answer.task.cancelled()
    registry.finished(answer)


async def test_an_answer_storing_its_final_state_after_a_stop_is_not_interrupted():
    registry = GenerationRegistry()
    answer = await running(registry, stores_its_final_state_when_cancelled)

    await asyncio.wait_for(registry.cancel(answer.session_id), timeout=10)

    assert answer.task.result() == "stored"
    registry.finished(answer)
