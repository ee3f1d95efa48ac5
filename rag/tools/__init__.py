"""The repository tools, defined once: the chat agent's model calls them, editors call them over MCP.

Each tool is a ``ToolSpec`` (name, description, JSON-schema parameters) and a
synchronous function over ``rag.services`` bound to one repository by a
``RepositoryToolbox``. Results are text headed by ``path:start-end`` with the
spans they show, so both doors cite the same lines.

May import: ``rag.services``, ``rag.models``, ``llm.types``.
"""

from __future__ import annotations

from rag.tools.toolbox import (
    Caps,
    RepositoryToolbox,
    Span,
    Tool,
    ToolFailure,
    ToolResult,
    argument_problems,
    in_file_order,
    schema_validator,
    tool_definitions,
    version_label,
)

__all__ = [
    "Caps", "RepositoryToolbox", "Span", "Tool", "ToolFailure", "ToolResult", "argument_problems", "in_file_order", "schema_validator",
    "tool_definitions", "version_label",
]
