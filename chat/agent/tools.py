"""The project tools the model may call during ``project_qa``: the repository tools of ``rag.tools``
bound to the chat's repository, with caps sized to the model's window.

``ProjectToolbox.call`` never raises for a bad call (see ``rag.tools``): the
model reads an error result and corrects its call. Every span a result shows
is recorded, and the answer's citations are checked against them.
"""

from __future__ import annotations

from database_pool import in_database_pool
from chat.agent.config import AgentConfig
from llm.types import ToolCall
from rag.models import Repository
from rag.tools import Caps, RepositoryToolbox, ToolResult


def caps_for(config: AgentConfig, window_tokens: int) -> Caps:
    """The configured caps, raised (up to double) when the model's window has room for more."""
    return Caps.for_budget(
        items=config.retrieved_items,
        files=config.file_candidates,
        result_chars=config.tool_result_chars,
        window_tokens=window_tokens,
    )


class ProjectToolbox(RepositoryToolbox):
    """The repository tools bound to the chat's repository for one turn."""

    def __init__(self, repository: Repository, config: AgentConfig, *, window_tokens: int) -> None:
        super().__init__(repository, caps_for(config, window_tokens))

    async def call(self, call: ToolCall) -> ToolResult:
        """Run one tool call; every failure becomes an error result for the model."""
        # On the database pool: many chats' searches run side by side, not one after another.
        return await in_database_pool(self.call_sync)(call)
