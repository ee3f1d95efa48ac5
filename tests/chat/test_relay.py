"""How frames reach a page: at once after a quiet spell, together within the frame interval."""

from __future__ import annotations

import asyncio

import pytest

from chat.streams import REGISTRY, Frame
from tests.chat.conftest import socket

pytestmark = pytest.mark.django_db(transaction=True)

INTERVAL_MS = 300


@pytest.fixture
def frame_interval(settings):
    settings.CHAT = {**settings.CHAT, "FRAME_INTERVAL_MS": INTERVAL_MS}


async def timed_receive(communicator) -> tuple[str, float]:
    loop = asyncio.get_running_loop()
    started = loop.time()
    message = await communicator.receive_from(timeout=5)
    return message, loop.time() - started


def text(number: int) -> Frame:
    """A streamed text delta of answer 1 (its sequence number sets it apart from other frames)."""
    return Frame(f"<p>{number}</p>", message_id=1, seq=number)


async def test_frames_within_the_interval_go_out_together_in_order_and_a_quiet_page_gets_the_next_at_once(
    frame_interval, owner_chat, owner_cookie
):
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    await REGISTRY.broadcast(owner_chat.pk, text(1))
    first, waited = await timed_receive(communicator)
    assert first == "<p>1</p>" and waited < INTERVAL_MS / 1000 / 2

    for number in range(2, 6):
        await REGISTRY.broadcast(owner_chat.pk, text(number))
        await asyncio.sleep(0.01)
    together, waited = await timed_receive(communicator)
    assert together == "<p>2</p><p>3</p><p>4</p><p>5</p>"
    assert waited > INTERVAL_MS / 1000 / 2
    assert await communicator.receive_nothing(timeout=0.1)

    await asyncio.sleep(INTERVAL_MS / 1000)
    await REGISTRY.broadcast(owner_chat.pk, text(6))
    last, waited = await timed_receive(communicator)
    assert last == "<p>6</p>" and waited < INTERVAL_MS / 1000 / 2
    await communicator.disconnect()


async def test_a_message_without_streamed_text_does_not_hold_back_the_first_token_after_it(
    frame_interval, owner_chat, owner_cookie
):
    communicator = socket(owner_chat.pk, owner_cookie)
    assert (await communicator.connect())[0]
    await REGISTRY.broadcast(owner_chat.pk, Frame("<li>step</li>"))
    assert (await timed_receive(communicator))[0] == "<li>step</li>"
    await asyncio.sleep(0.01)

    await REGISTRY.broadcast(owner_chat.pk, text(1))
    first, waited = await timed_receive(communicator)
    assert first == "<p>1</p>" and waited < INTERVAL_MS / 1000 / 2
    await communicator.disconnect()


def test_the_interval_stretches_with_the_answers_streaming_in_the_process_up_to_its_cap(settings):
    from chat.streams import frame_interval

    settings.CHAT = {**settings.CHAT, "FRAME_INTERVAL_MS": 50, "FRAMES_PER_SECOND": 2000, "FRAME_INTERVAL_MAX_MS": 200}
    assert frame_interval(0) == frame_interval(100) == pytest.approx(0.05)
    # 200 pages within 2000 messages a second: each gets one every 100 ms.
    assert frame_interval(200) == pytest.approx(0.1)
    assert frame_interval(10_000) == pytest.approx(0.2)
    settings.CHAT = {**settings.CHAT, "FRAME_INTERVAL_MS": 0, "FRAME_INTERVAL_MAX_MS": 0}
    assert frame_interval(10_000) == 0
