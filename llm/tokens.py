"""Token estimates for providers without a counting endpoint.

Exact tokenizers are provider-specific and some download their vocabulary on
first use, so budgeting never depends on one: about four bytes of UTF-8 per
token is close for English prose and code, and errs high for other scripts,
which keeps a context window from overflowing.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

from llm.types import Message

BYTES_PER_TOKEN = 4.0
# Role markers and separators the chat formats add around every message.
MESSAGE_OVERHEAD_TOKENS = 4


def estimate_tokens(text: str) -> int:
    if not text:
        return 0
    return math.ceil(len(text.encode("utf-8")) / BYTES_PER_TOKEN)


def estimate_message_tokens(messages: Iterable[Message]) -> int:
    total = 0
    for message in messages:
        total += MESSAGE_OVERHEAD_TOKENS + estimate_tokens(message.content)
        for call in message.tool_calls:
            total += estimate_tokens(call.name) + estimate_tokens(call.raw_arguments or str(dict(call.arguments)))
    return total
