"""click and typer commands, and Flask's ``app.cli``: a command's full name through its groups."""

from __future__ import annotations

from rag.analysis.entrypoints.context import FinderContext
from rag.analysis.facts import DecoratorCall, FileFacts
from rag.analysis.names import MAX_DEPTH
from rag.analysis.records import Entrypoint, Symbol
from rag.analysis.results import FileAnalysis

CLICK_NAME_SUFFIXES = ("_command", "_cmd", "_group", "_grp")


def click_command_name(function_name: str) -> str:
    """The name click 8.2 gives a command made from ``function_name``."""
    name = function_name
    for suffix in CLICK_NAME_SUFFIXES:
        if name.endswith(suffix) and name != suffix:
            name = name[: -len(suffix)]
            break
    return name.lower().replace("_", "-")


def flask_cli(context: FinderContext, analysis: FileAnalysis, facts: FileFacts, symbol: Symbol, call: DecoratorCall) -> bool:
    """``@app.cli.command()`` -> ``flask NAME``; on a blueprint ``flask BLUEPRINT NAME``."""
    owner = call.target.rpartition(".")[0].removesuffix(".cli")
    framework, owner_qname = context.framework(owner, call.scope, facts.module or "", facts)
    if framework != "flask":
        return False
    group = ""
    instance = context.names.instances.get(owner_qname or "")
    if instance is not None and instance.callee.rsplit(".", 1)[-1] == "Blueprint":
        given = instance.kwarg("cli_group", instance.args[0] if instance.args else None)
        group = given if isinstance(given, str) else ""
    name = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("name")
    if not isinstance(name, str):
        name = click_command_name(symbol.name)
    _command(context, analysis, symbol, "flask", " ".join(part for part in ("flask", group, name) if part))
    return True


def click_command(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall) -> None:
    _command(context, analysis, symbol, "click", _click_name(context, symbol, call))


def typer_command(
    context: FinderContext, analysis: FileAnalysis, symbol: Symbol, call: DecoratorCall, receiver_qname: str | None
) -> None:
    name = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("name")
    if not isinstance(name, str):
        name = symbol.name.lower().replace("_", "-")
    prefix = _typer_prefix(context, receiver_qname)
    _command(context, analysis, symbol, "typer", f"{prefix} {name}".strip())


def _click_name(context: FinderContext, symbol: Symbol, call: DecoratorCall) -> str:
    """The command's full path: enclosing groups' names, then its own."""
    own = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("name")
    if not isinstance(own, str):
        own = click_command_name(symbol.name)
    mounted = [m for m in context.mounts.get(symbol.qname, ()) if m[0] == "add_command"]
    if mounted:
        _, name, parent = mounted[0]
        parent_name = _group_name(context, parent, set())
        return f"{parent_name} {name or own}".strip()
    receiver = call.target.rpartition(".")[0]
    module = symbol.module
    parent = context.target(receiver, call.scope, module) if receiver else None
    if parent is not None and context.is_click_group(parent):
        return f"{_group_name(context, parent, set())} {own}".strip()
    return own


def _group_name(context: FinderContext, qname: str, seen: set[str]) -> str:
    if qname in seen or qname not in context.names.symbols or len(seen) >= MAX_DEPTH:
        return ""
    seen.add(qname)
    module, calls = context.decorators.get(qname, ("", ()))
    for call in calls:
        if call.target.rsplit(".", 1)[-1] in ("group", "command"):
            symbol = context.names.symbols[qname]
            own = call.args[0] if call.args and isinstance(call.args[0], str) else call.kwarg("name")
            own = own if isinstance(own, str) else click_command_name(symbol.name)
            mounted = [m for m in context.mounts.get(qname, ()) if m[0] == "add_command"]
            if mounted:
                return f"{_group_name(context, mounted[0][2], seen)} {mounted[0][1] or own}".strip()
            receiver = call.target.rpartition(".")[0]
            parent = context.target(receiver, call.scope, module) if receiver else None
            if parent is not None and context.is_click_group(parent):
                return f"{_group_name(context, parent, seen)} {own}".strip()
            return own
    return ""


def _typer_prefix(context: FinderContext, receiver_qname: str | None, seen: frozenset[str] = frozenset()) -> str:
    if receiver_qname is None or receiver_qname in seen or len(seen) >= MAX_DEPTH:
        return ""
    mounted = [m for m in context.mounts.get(receiver_qname, ()) if m[0] == "add_typer"]
    if not mounted:
        return ""
    _, name, parent = mounted[0]
    if not name:
        instance = context.names.instances.get(receiver_qname)
        given = instance.kwarg("name") if instance is not None else None
        name = given if isinstance(given, str) else ""
    return f"{_typer_prefix(context, parent, seen | {receiver_qname})} {name}".strip()


def _command(context: FinderContext, analysis: FileAnalysis, symbol: Symbol, framework: str, command: str) -> None:
    context.add(
        analysis.path,
        Entrypoint(
            entry_type="cli_command",
            framework=framework,
            route_or_command=command,
            handler=symbol.qname,
            path=analysis.path,
            start_line=symbol.start_line,
            end_line=symbol.end_line,
            handler_raw=symbol.qname,
        ),
    )
