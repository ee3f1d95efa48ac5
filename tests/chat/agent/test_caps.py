"""Context caps: 12 retrieved items and 10 file candidates unless the model's window has room for more."""

from __future__ import annotations

import pytest

from chat.agent.config import AgentConfig
from chat.agent.tools import caps_for
from rag.tools import Caps


@pytest.mark.parametrize(
    ("window", "items", "files"),
    [(3_000, 12, 10), (8_192, 12, 10), (16_000, 16, 16), (128_000, 24, 20)],
)
def test_caps_rise_with_the_window_up_to_double(window, items, files):
    assert caps_for(AgentConfig(), window) == Caps(items=items, files=files, result_chars=12_000 * items // 12)
