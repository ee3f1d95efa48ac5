"""``LLMContext`` budgeting and the hard guard, on plain messages."""

from __future__ import annotations

from llm.conversation.context import LLMContext, Summary, fit_to_window
from llm.tokens import estimate_message_tokens
from llm.types import Message


def dialog(turns: int) -> list[Message]:
    messages = []
    for n in range(turns):
        messages += [Message("user", f"question {n} " * 10), Message("assistant", f"answer {n} " * 20)]
    return messages


def test_usage_ratio_grows_with_the_history_and_stays_within_zero_and_one():
    context = LLMContext(system_prompt="Be brief.", window=1000)
    empty = context.estimate_usage_ratio()
    for message in dialog(3):
        context.append(message)
    assert 0 < empty < context.estimate_usage_ratio() < 1
    for message in dialog(50):
        context.append(message)
    assert context.estimate_usage_ratio() == 1.0


def test_the_prompt_is_one_system_message_with_format_and_summary_then_the_history():
    context = LLMContext(
        system_prompt="Be brief.",
        window=4000,
        response_format="Answer in JSON.",
        summary=Summary("They discussed retries.", covered_messages=6),
        messages=dialog(1),
    )
    messages = context.build_messages("next?")
    assert [m.role for m in messages] == ["system", "user", "assistant", "user"]
    assert "Be brief." in messages[0].content and "Answer in JSON." in messages[0].content
    assert "They discussed retries." in messages[0].content
    assert context.start == 6 and context.end == 8
    assert context.history()[0].content.endswith("They discussed retries.")


def test_the_summarization_slice_keeps_whole_recent_exchanges():
    context = LLMContext(system_prompt="", window=1000, messages=dialog(6))
    older, recent = context.summarization_slice(keep_tokens=120)
    assert older + recent == context.messages
    assert recent[0].role == "user" and older
    assert estimate_message_tokens(recent) <= 120 + estimate_message_tokens([recent[0]])


def test_the_hard_guard_drops_the_oldest_history_and_keeps_system_and_question():
    messages = [Message("system", "Be brief."), *dialog(20), Message("user", "the question")]
    fitted = fit_to_window(messages, 300)
    assert estimate_message_tokens(fitted.messages) <= 300
    assert fitted.messages[0].content == "Be brief." and fitted.messages[-1].content == "the question"
    assert fitted.dropped > 0 and not fitted.truncated
    assert fitted.messages[1:-1] == tuple(messages[1 + fitted.dropped : -1])
