"""Commands run from a shell: argparse commands, Django management commands and console scripts
(``pyproject.toml``, ``setup.cfg``, ``setup.py``, ``package.json``, Cargo binaries)."""

from __future__ import annotations

from rag.analysis.entrypoints.context import FinderContext
from rag.analysis.facts import ArgparseCommand
from rag.analysis.records import Entrypoint
from rag.analysis.results import FileAnalysis


def argparse_command(context: FinderContext, analysis: FileAnalysis, module: str, command: ArgparseCommand) -> None:
    if command.handler is not None:
        handler = context.names.resolve(command.handler, command.scope, module, command.class_scope)
        raw = command.handler
    else:
        handler = command.scope if command.scope in context.names.symbols else None
        raw = command.scope
    context.add(
        analysis.path,
        Entrypoint(
            entry_type="cli_command",
            framework="argparse",
            route_or_command=command.command,
            handler=handler,
            path=analysis.path,
            start_line=command.line,
            end_line=command.end_line,
            handler_raw=raw,
        ),
    )


def management_command(context: FinderContext, analysis: FileAnalysis, module: str, name: str) -> None:
    command_class = context.names.symbols.get(f"{module}.Command")
    if command_class is None:
        return
    handler = f"{module}.Command.handle"
    context.add(
        analysis.path,
        Entrypoint(
            entry_type="cli_command",
            framework="django",
            route_or_command=name,
            handler=handler if handler in context.names.symbols else command_class.qname,
            path=analysis.path,
            start_line=command_class.start_line,
            end_line=command_class.end_line,
            handler_raw=f"{module}.Command",
        ),
    )


def console_script(context: FinderContext, analysis: FileAnalysis, name: str, target: str, line: int, group: str) -> None:
    dotted = target.replace(":", ".")
    found = context.names.locate(dotted)
    context.add(
        analysis.path,
        Entrypoint(
            entry_type="cli_command",
            framework=group,
            route_or_command=name,
            handler=found[1] if found is not None and found[0] == "symbol" else None,
            path=analysis.path,
            start_line=line,
            end_line=line,
            handler_raw=target,
        ),
    )
