"""AgentContext is an immutable value: every change returns a new context."""

from __future__ import annotations

import dataclasses

import pytest

from llm.graph import AgentContext, AgentSettings
from llm.types import Message, ToolSpec


def _tool(name: str) -> ToolSpec:
    return ToolSpec(name=name, description=name, parameters={"type": "object"})


def test_it_refuses_attribute_assignment() -> None:
    ctx = AgentContext(input="q")
    with pytest.raises(dataclasses.FrozenInstanceError):
        ctx.input = "other"  # type: ignore[misc]


def test_its_state_is_read_only_and_detached_from_the_callers_dict() -> None:
    source = {"chunks": 3}
    ctx = AgentContext(input="q", state=source)
    source["chunks"] = 99
    with pytest.raises(TypeError):
        ctx.state["chunks"] = 4  # type: ignore[index]
    assert ctx.state == {"chunks": 3}


def test_with_state_merges_into_a_new_context_and_leaves_the_old_one() -> None:
    before = AgentContext(input="q", state={"a": 1, "b": 2})
    after = before.with_state({"b": 20}, c=3)
    assert after.state == {"a": 1, "b": 20, "c": 3}
    assert before.state == {"a": 1, "b": 2}
    assert after.input == "q"


def test_evolve_replaces_fields_and_keeps_the_rest() -> None:
    settings = AgentSettings(model="m", temperature=0.2)
    before = AgentContext(input="q", system_prompt="be brief", settings=settings, state={"k": 1})
    after = before.evolve(input=42, system_prompt="be thorough")
    assert (after.input, after.system_prompt) == (42, "be thorough")
    assert after.settings is settings
    assert after.state == {"k": 1}
    assert before.input == "q"


def test_map_transforms_the_input_only() -> None:
    ctx = AgentContext(input="three words here", history=[Message(role="user", content="hi")])
    mapped = ctx.map(str.split)
    assert mapped.input == ["three", "words", "here"]
    assert mapped.history == ctx.history
    assert ctx.input == "three words here"


def test_sequences_are_stored_as_tuples() -> None:
    ctx = AgentContext(input="q", history=[Message(role="user", content="hi")], tools=[_tool("a")])
    assert isinstance(ctx.history, tuple)
    assert isinstance(ctx.tools, tuple)


def test_with_history_appends_messages() -> None:
    ctx = AgentContext(input="q", history=[Message(role="user", content="hi")])
    longer = ctx.with_history([Message(role="assistant", content="hello")])
    assert [m.content for m in longer.history] == ["hi", "hello"]
    assert len(ctx.history) == 1


def test_enabled_tools_follow_the_settings_allow_list() -> None:
    tools = [_tool("search_code"), _tool("read_file"), _tool("callers")]
    everything = AgentContext(input="q", tools=tools)
    restricted = everything.evolve(settings=AgentSettings(tools=["callers", "search_code"]))
    assert [t.name for t in everything.enabled_tools] == ["search_code", "read_file", "callers"]
    assert [t.name for t in restricted.enabled_tools] == ["search_code", "callers"]
    assert restricted.evolve(settings=AgentSettings(tools=())).enabled_tools == ()
