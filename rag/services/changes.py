"""What changed between two kept index versions of a repository: files and symbols.

Answers "what changed since <sha or version>" from the versions' own stored
files (content hashes and text) and symbols, so it works for zip uploads as
well as for git commits, and needs no git history (mirrors are shallow).
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import asdict, dataclass, field

from rag.models import IndexRun, Repository, SourceFile, Symbol

# A rename whose content changed too is found by line similarity, up to this many candidates a side.
RENAME_CANDIDATES = 200
RENAME_SIMILARITY = 0.5
_HEX = re.compile(r"^[0-9a-f]{4,40}$")
_NUMBER = re.compile(r"^\d{1,12}$")


class VersionNotFound(Exception):
    """``since`` or ``until`` names no kept version of the repository; the message lists the kept ones."""


@dataclass(frozen=True)
class VersionInfo:
    run_id: int
    commit_sha: str
    commit_message: str
    created_at: str

    @property
    def label(self) -> str:
        return f"#{self.run_id}" + (f" ({self.commit_sha[:12]})" if self.commit_sha else "")


@dataclass(frozen=True)
class FileChange:
    path: str
    # "added", "changed", "deleted" or "renamed"
    status: str
    old_path: str = ""
    # A renamed file whose content changed as well.
    content_changed: bool = False


@dataclass(frozen=True)
class SymbolChange:
    qname: str
    kind: str
    path: str
    start_line: int
    end_line: int
    # "added", "removed", "changed" (signature, docstring or body), or "moved" (same definition, renamed file)
    status: str
    old_qname: str = ""
    old_path: str = ""


@dataclass(frozen=True)
class RepositoryChanges:
    since: VersionInfo
    until: VersionInfo
    files: list[FileChange] = field(default_factory=list)
    symbols: list[SymbolChange] = field(default_factory=list)

    def files_with(self, status: str) -> list[FileChange]:
        return [change for change in self.files if change.status == status]

    def symbols_with(self, status: str) -> list[SymbolChange]:
        return [change for change in self.symbols if change.status == status]

    def as_dict(self) -> dict:
        return asdict(self)

    def as_text(self, max_items: int = 200) -> str:
        """The changes in plain lines (for a person, or a model answering "what changed since ..."), capped."""
        lines = [f"Changes from {self.since.label} to {self.until.label}:"]
        if self.since.commit_sha and self.until.commit_sha:
            lines[0] = lines[0][:-1] + f" ({_subject(self.since.commit_message)!r} to {_subject(self.until.commit_message)!r}):"
        entries = [
            f"{change.status} {change.path}" + (f" (from {change.old_path}{', edited' if change.content_changed else ''})" if change.old_path else "")
            for change in self.files
        ]
        entries += [
            f"symbol {change.status} {change.kind} {change.qname} at {change.path}:{change.start_line}-{change.end_line}"
            + (f" (was {change.old_qname or change.qname} in {change.old_path})" if change.old_path else "")
            for change in self.symbols
        ]
        if not entries:
            return lines[0] + " none (the two versions hold the same files)."
        lines += [f"- {entry}" for entry in entries[:max_items]]
        if len(entries) > max_items:
            lines.append(f"- ... and {len(entries) - max_items} more")
        return "\n".join(lines)


def _subject(message: str) -> str:
    return message.split("\n", 1)[0][:120]


def kept_versions(repository: Repository):
    """Versions whose rows are still stored (the active one and the kept superseded ones), newest first."""
    return (
        repository.runs.filter(status__in=[IndexRun.Status.READY, IndexRun.Status.SUPERSEDED], has_items=True)
        .order_by("-id")
    )


def _info(run: IndexRun) -> VersionInfo:
    return VersionInfo(run.pk, run.commit_sha, run.commit_message, run.created_at.isoformat())


def resolve_version(repository: Repository, reference: str) -> IndexRun:
    """The kept version a reference names: a commit SHA prefix (4+ hex digits) or a version number (``12``, ``#12``)."""
    text = (reference or "").strip().lower()
    for prefix in ("version ", "run ", "#", "v"):
        if text.startswith(prefix) and _NUMBER.match(text[len(prefix):].strip()):
            text = text[len(prefix):].strip()
            break
    kept = list(kept_versions(repository))
    if _HEX.match(text):
        by_sha = [run for run in kept if run.commit_sha.startswith(text)]
        if len({run.commit_sha for run in by_sha}) > 1:
            raise VersionNotFound(f"{reference!r} is the start of several commits; give more of the SHA.")
        if by_sha:
            return by_sha[0]
    if _NUMBER.match(text):
        for run in kept:
            if run.pk == int(text):
                return run
    listed = ", ".join(_info(run).label for run in kept[:10]) or "none"
    raise VersionNotFound(f"{reference!r} names no kept version of {repository.name} (kept: {listed}).")


def _line_set(text: str) -> set[str]:
    return {line.strip() for line in text.splitlines() if line.strip()}


def _similarity(a: set[str], b: set[str]) -> float:
    return len(a & b) / max(len(a | b), 1)


def _file_changes(old: dict[str, str], new: dict[str, str], texts) -> list[FileChange]:
    added = sorted(set(new) - set(old))
    deleted = sorted(set(old) - set(new))
    changed = sorted(path for path in set(old) & set(new) if old[path] != new[path])
    renames: dict[str, tuple[str, bool]] = {}
    # Exact renames: the deleted file's content is an added file's.
    by_hash: dict[str, list[str]] = defaultdict(list)
    for path in deleted:
        by_hash[old[path]].append(path)
    for path in added:
        sources = by_hash.get(new[path])
        if sources:
            renames[path] = (sources.pop(0), False)
    left_deleted = [path for path in deleted if path not in {source for source, _ in renames.values()}]
    left_added = [path for path in added if path not in renames]
    if left_deleted and left_added and len(left_deleted) <= RENAME_CANDIDATES and len(left_added) <= RENAME_CANDIDATES:
        old_lines = {path: _line_set(text) for path, text in texts(False, left_deleted).items()}
        new_lines = {path: _line_set(text) for path, text in texts(True, left_added).items()}
        pairs = sorted(
            ((_similarity(old_lines[o], new_lines[n]), o, n) for o in old_lines for n in new_lines), reverse=True
        )
        taken: set[str] = set()
        for score, source, target in pairs:
            if score < RENAME_SIMILARITY:
                break
            if source in taken or target in renames:
                continue
            renames[target] = (source, True)
            taken.add(source)
    renamed_from = {source for source, _ in renames.values()}
    changes = [FileChange(path, "added") for path in added if path not in renames]
    changes += [FileChange(path, "changed") for path in changed]
    changes += [FileChange(path, "deleted") for path in deleted if path not in renamed_from]
    changes += [FileChange(target, "renamed", source, edited) for target, (source, edited) in renames.items()]
    return sorted(changes, key=lambda change: (change.path, change.status))


def _symbols(run: IndexRun) -> dict[str, list[Symbol]]:
    found: dict[str, list[Symbol]] = defaultdict(list)
    for symbol in Symbol.objects.in_version(run).order_by("path", "start_line", "id"):
        found[symbol.qname].append(symbol)
    return found


def _local_name(symbol: Symbol) -> str:
    prefix = f"{symbol.module}."
    return symbol.qname[len(prefix):] if symbol.module and symbol.qname.startswith(prefix) else symbol.qname


def _body(texts: dict[str, list[str]], symbol: Symbol) -> str:
    lines = texts.get(symbol.path) or []
    return "\n".join(lines[symbol.start_line - 1 : symbol.end_line])


def _differs(a: Symbol, b: Symbol, old_texts, new_texts) -> bool:
    if (a.kind, a.signature, a.docstring) != (b.kind, b.signature, b.docstring):
        return True
    return _body(old_texts, a) != _body(new_texts, b)


def _change(symbol: Symbol, status: str, before: Symbol | None = None) -> SymbolChange:
    return SymbolChange(
        symbol.qname, symbol.kind, symbol.path, symbol.start_line, symbol.end_line, status,
        old_qname=before.qname if before is not None and before.qname != symbol.qname else "",
        old_path=before.path if before is not None and before.path != symbol.path else "",
    )


def changes_between(repository: Repository, since: str, until: str | None = None) -> RepositoryChanges:
    """Files added, changed, deleted and renamed, and symbols added, removed, changed and moved, from ``since`` to ``until``.

    ``since`` and ``until`` are a commit SHA prefix or a version number of a
    kept version; ``until`` defaults to the active version. Raises
    ``VersionNotFound`` for a reference to no kept version.
    """
    before = resolve_version(repository, since)
    if until is None:
        after = repository.active_run if repository.active_run_id else None
        if after is None:
            raise VersionNotFound(f"{repository.name} has no active index version.")
    else:
        after = resolve_version(repository, until)
    old = dict(SourceFile.objects.in_version(before).values_list("path", "content_hash"))
    new = dict(SourceFile.objects.in_version(after).values_list("path", "content_hash"))

    def texts(newer: bool, paths) -> dict[str, str]:
        return dict(SourceFile.objects.in_version(after if newer else before).filter(path__in=list(paths)).values_list("path", "text"))

    files = _file_changes(old, new, texts)
    touched_old = {c.old_path or c.path for c in files if c.status != "added"}
    touched_new = {c.path for c in files if c.status != "deleted"}
    old_texts = {path: text.splitlines() for path, text in texts(False, touched_old).items()}
    new_texts = {path: text.splitlines() for path, text in texts(True, touched_new).items()}
    old_symbols, new_symbols = _symbols(before), _symbols(after)
    changes: list[SymbolChange] = []
    removed: list[Symbol] = []
    added: list[Symbol] = []
    for qname in sorted(set(old_symbols) | set(new_symbols)):
        was, now = old_symbols.get(qname, []), new_symbols.get(qname, [])
        for a, b in zip(was, now):
            if (a.path in touched_old or b.path in touched_new) and _differs(a, b, old_texts, new_texts):
                changes.append(_change(b, "changed", a))
        removed += was[len(now):]
        added += now[len(was):]
    # A definition in a renamed file keeps its name inside the module: moved (or changed), not removed and added.
    renamed = {c.old_path: c.path for c in files if c.status == "renamed"}
    waiting: dict[tuple[str, str, str], list[Symbol]] = defaultdict(list)
    for symbol in removed:
        if symbol.path in renamed:
            waiting[(renamed[symbol.path], _local_name(symbol), symbol.kind)].append(symbol)
    matched: set[int] = set()
    for symbol in added:
        candidates = waiting.get((symbol.path, _local_name(symbol), symbol.kind))
        if candidates:
            source = candidates.pop(0)
            matched.add(source.pk)
            changes.append(_change(symbol, "changed" if _differs(source, symbol, old_texts, new_texts) else "moved", source))
        else:
            changes.append(_change(symbol, "added"))
    changes += [_change(symbol, "removed") for symbol in removed if symbol.pk not in matched]
    changes.sort(key=lambda change: (change.path, change.start_line, change.qname, change.status))
    return RepositoryChanges(since=_info(before), until=_info(after), files=files, symbols=changes)
