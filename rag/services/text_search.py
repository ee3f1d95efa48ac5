"""Exact text search over the files of an index version, line by line, as grep does.

The ranking answers questions; this finds every place a string is written: a
dependency in a manifest (``jackson-databind`` in ``pom.xml``), an error
message, a setting's name, a TODO. Both the match and the split into lines run
in PostgreSQL over the stored files (``SourceFile.text``), so a regular
expression is matched by PostgreSQL's engine (POSIX advanced expressions, close
to Perl's), which does not backtrack the way Python's does, and the statement
runs under its own time limit: a hostile pattern gets an error in bounded time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from django.conf import settings
from django.db import DataError, OperationalError, connection, transaction

from rag.models import IndexRun, Repository
from rag.services.retrieval.params import SearchError, glob_to_regex
from rag.storage import version_filter

MAX_PATTERN_CHARS = 500
MAX_MATCHES = 500
# Characters of a matching line shown (a minified file is one line).
LINE_CHARS = 300
# A pattern's own options, at its start (PostgreSQL's ``(?i)``, ``(?x)``...; not a group such as ``(?:``).
_EMBEDDED_OPTIONS = re.compile(r"\(\?([bceimnpqstwx]+)\)")


class TextSearchError(ValueError):
    """The pattern cannot be searched; the message says what to change."""


@dataclass(frozen=True)
class TextMatch:
    path: str
    line: int
    text: str  # the line, cut to LINE_CHARS

    @property
    def citation(self) -> str:
        return f"{self.path}:{self.line}"


@dataclass(frozen=True)
class TextMatches:
    matches: tuple[TextMatch, ...]
    truncated: bool  # more lines match than were asked for
    case_sensitive: bool = False  # how the pattern was matched (smart case decides when the caller does not)


def search_text(
    repository: Repository,
    pattern: str,
    *,
    regex: bool = False,
    case_sensitive: bool | None = None,
    path_glob: str | None = None,
    limit: int = 100,
    run: IndexRun | None = None,
) -> TextMatches:
    """The lines of the version's files that contain ``pattern`` (a regular expression with ``regex``), in path
    and line order, at most ``limit``. Case is ignored unless ``case_sensitive``; by default a text with a
    capital letter is matched as written and one without ignores case, as ripgrep's smart case does (a
    regular expression ignores case); raises ``TextSearchError`` for an empty, overlong or invalid pattern and
    for one that takes longer than ``RAG['TEXT_SEARCH_TIMEOUT_MS']``."""
    run = run or repository.active_run
    if not pattern:
        raise TextSearchError("the pattern is empty")
    if len(pattern) > MAX_PATTERN_CHARS:
        raise TextSearchError(f"the pattern is longer than {MAX_PATTERN_CHARS} characters")
    if "\x00" in pattern:
        raise TextSearchError("the pattern contains a NUL character")
    if case_sensitive is None:
        case_sensitive = not regex and pattern != pattern.lower()
    if run is None:
        return TextMatches((), False, case_sensitive)
    limit = max(1, min(limit, MAX_MATCHES))
    # The statement's own limit: a pattern that needs longer is refused, whatever the server's limit.
    timeout_ms = settings.RAG["TEXT_SEARCH_TIMEOUT_MS"]
    version, params = version_filter(run)
    whole_file: str | None = pattern
    if regex:
        operator = "~" if case_sensitive else "~*"
        file_match, line_match = f"text {operator} %s", f"line {operator} %s"
        # Files are matched whole before their lines: newline-sensitive there, so ``^`` and ``$`` are a line's
        # ends as they are in each line (``(?n)``, merged with the pattern's own options: ``(?i)`` is ``(?ni)``;
        # a pattern behind a director, ``***:``, is matched by lines alone).
        if pattern.startswith("***"):
            file_match, whole_file = "TRUE", None
        elif options := _EMBEDDED_OPTIONS.match(pattern):
            whole_file = f"(?n{options.group(1)}){pattern[options.end():]}"
        else:
            whole_file = "(?n)" + pattern
    elif case_sensitive:
        file_match, line_match = "strpos(text, %s) > 0", "strpos(line, %s) > 0"
    else:
        # PostgreSQL's case-insensitive match of a literal (``***=``) reads a file half again as fast as lower() does.
        file_match, line_match = "text ~* ('***=' || %s)", "line ~* ('***=' || %s)"
    paths = ""
    if path_glob:
        paths = " AND path ~ %s"
        try:
            params.append(glob_to_regex(path_glob))
        except SearchError as exc:
            raise TextSearchError(str(exc)) from exc
    # The matching files in path order, each split into lines only until the limit is reached: the lateral
    # join reads them one after the other, so a common word stops at the first files that hold enough lines.
    sql = (
        f"SELECT path, number, left(line, {LINE_CHARS}) FROM ("
        f"  SELECT path, text FROM rag_sourcefile WHERE {version}{paths} AND {file_match} ORDER BY path"
        ") AS files, LATERAL unnest(string_to_array(text, E'\\n')) WITH ORDINALITY AS lines(line, number) "
        f"WHERE {line_match} LIMIT %s"
    )
    params += [*([whole_file] if whole_file is not None else []), pattern, limit + 1]
    try:
        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT set_config('statement_timeout', %s, true)", [str(timeout_ms)])
            cursor.execute(sql, params)
            rows = cursor.fetchall()
    except DataError as exc:
        # PostgreSQL's words: "invalid regular expression: parentheses () not balanced".
        raise TextSearchError(str(exc).strip().splitlines()[0]) from exc
    except OperationalError as exc:
        if "statement timeout" not in str(exc):
            raise
        raise TextSearchError(
            f"the search took longer than {timeout_ms / 1000:g} s; narrow it with a path glob or a simpler pattern"
        ) from exc
    rows.sort(key=lambda row: (row[0], row[1]))
    matches = tuple(TextMatch(path, int(number), text.rstrip("\r")) for path, number, text in rows[:limit])
    return TextMatches(matches, len(rows) > limit, case_sensitive)
