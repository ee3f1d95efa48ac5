"""The immutable context that flows through a graph.

A node never mutates its context: it returns a new one (``evolve``, ``map``,
``with_state``). That makes every step's input and output a value that can be
logged, compared or kept when a run stops half way.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Generic, TypeVar

from llm.types import Message, ToolSpec

T = TypeVar("T")
U = TypeVar("U")


@dataclass(frozen=True)
class AgentSettings:
    """How the model is called for this context.

    ``model`` None means the provider's configured model; ``tools`` None means
    every tool of the context may be offered, otherwise only those names.
    """

    model: str | None = None
    temperature: float | None = None
    tools: tuple[str, ...] | None = None

    def __post_init__(self) -> None:
        if self.tools is not None:
            object.__setattr__(self, "tools", tuple(self.tools))


def _frozen_state(state: Mapping[str, Any]) -> Mapping[str, Any]:
    # A read-only view over a private copy: nobody holding the original dict
    # (or the view) can change a context after it was made.
    return MappingProxyType(dict(state))


@dataclass(frozen=True)
class AgentContext(Generic[T]):
    """What a node reads and returns: the turn's ``input`` plus everything around it.

    ``state`` is a free, read-only mapping for values nodes hand to each other
    (retrieved chunks, the chosen intent, a draft answer); change it with
    ``with_state``.
    """

    input: T
    history: tuple[Message, ...] = ()
    settings: AgentSettings = field(default_factory=AgentSettings)
    tools: tuple[ToolSpec, ...] = ()
    system_prompt: str = ""
    state: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))

    def __post_init__(self) -> None:
        object.__setattr__(self, "history", tuple(self.history))
        object.__setattr__(self, "tools", tuple(self.tools))
        object.__setattr__(self, "state", _frozen_state(self.state))

    def evolve(self, **changes: Any) -> AgentContext[Any]:
        """A copy with the given fields replaced (``input`` may change type)."""
        return dataclasses.replace(self, **changes)

    def map(self, fn: Callable[[T], U]) -> AgentContext[U]:
        """A copy whose input is ``fn(input)``; everything else is kept."""
        return AgentContext(
            input=fn(self.input),
            history=self.history,
            settings=self.settings,
            tools=self.tools,
            system_prompt=self.system_prompt,
            state=self.state,
        )

    def with_state(self, updates: Mapping[str, Any] | None = None, /, **values: Any) -> AgentContext[T]:
        """A copy whose state has these keys set (merged over the current state)."""
        merged = dict(self.state)
        merged.update(updates or {})
        merged.update(values)
        return dataclasses.replace(self, state=merged)

    @property
    def enabled_tools(self) -> tuple[ToolSpec, ...]:
        """The tools the settings allow, in the context's order."""
        allowed = self.settings.tools
        if allowed is None:
            return self.tools
        return tuple(tool for tool in self.tools if tool.name in allowed)

    def with_history(self, messages: Iterable[Message]) -> AgentContext[T]:
        """A copy with these messages appended to the history."""
        return dataclasses.replace(self, history=self.history + tuple(messages))
