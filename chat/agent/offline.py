"""Answering a project question without a model: extracted from the index, in template prose.

The answer names the most relevant definitions, where the best one is called
from, the entrypoints that lead to them and the code spans worth reading, each cited as ``path:start-end``. It
always says first that no model is configured, so it is never mistaken for a
generated answer.

Relevance: the repository's hybrid search finds the definitions, and the
learned file ranking (what ``search_code`` lists) orders them by their files;
in one file, by search score plus how many of the question's words their name
and path contain (so "the login view" puts ``login_view`` first). A name the
question spells out (``MustNewServer``) leads whatever its file. A text the
question quotes (`` `jackson-databind` ``, "Unknown format code") is shown where
it is written, line by line. A package the manifests declare that the question
names (`` `jackson-databind` ``, "which version of react?"), or the packages
as such ("what libraries does it use?"), are listed as the manifests declare them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from database_pool import in_database_pool
from chat.agent.citing import Span
from chat.agent.tools import ProjectToolbox
from rag import services as rag
from rag.query_analysis import quoted_texts
from rag.tools import in_file_order
from rag.terms import looks_like_test_path

NO_MODEL_NOTE = (
    "No language model is configured, so this answer is extracted from the repository's index "
    "instead of being written by a model."
)
NOTHING_FOUND = "Nothing in the index matches this question. Try the names of functions, classes or files."

STOP_WORDS = frozenset(
    """a an and are as at be by can do does did for from has have how i in is it its me my of on or our show
    tell that the their them then there these this to use used uses using was what when where which who why will
    with would you your defined define definition implemented implementation located find code file files
    project repository repo work works please explain""".split()
)
MAX_DEFINITIONS = 5
MAX_ENTRYPOINTS = 5
MAX_SPANS = 4
MAX_CALLERS = 5
# Lines shown per text the question quotes, where it is written.
MAX_QUOTED_LINES = 5
# A question about the project's packages as such ("What libraries does it depend on?") lists them.
DEPENDENCY_QUESTION = re.compile(r"\b(?:dependenc(?:y|ies)|librar(?:y|ies)|packages|third[- ]party|requirements)\b", re.IGNORECASE)
MAX_DEPENDENCIES = 10
# A question about the project's routes or commands as such ("What HTTP routes does it define?")
# lists the entrypoints of that kind, whether or not their paths share its words.
ENTRYPOINT_QUESTIONS = (
    (re.compile(r"\b(?:routes?|endpoints?|urls?|apis?)\b", re.IGNORECASE), "http_route"),
    (re.compile(r"\b(?:commands?|cli|command[- ]line|subcommands?|programs?|binar(?:y|ies))\b", re.IGNORECASE), "cli_command"),
    (re.compile(r"\b(?:tasks?|jobs?|workers?|cron|scheduled|queues?|listeners?|consumers?)\b", re.IGNORECASE), "task"),
    (re.compile(r"\b(?:g?rpcs?|trpc|procedures?|protobuf|graphql|mutations?|resolvers?)\b", re.IGNORECASE), "rpc_service"),
    (re.compile(r"\b(?:activit(?:y|ies)|deep[- ]links?|app links?|broadcast receivers?|content providers?|app components?)\b", re.IGNORECASE), "app_component"),
)
# What a question's words may end or start with around an entrypoint it names (``gh alias delete?``, "`/api/users`").
ENTRYPOINT_TOKEN_ENDS = "`'\".,;:!?()[]"
# An HTTP method as a question writes it beside a route (``GET /api/articles``).
HTTP_METHOD = re.compile(r"\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b")
# A route's parameter (``:id``, ``{id}``, ``<id>``, ``*path``): a question names such a route by another path.
ROUTE_PARAMETER = re.compile(r"[:{<*\[]")
# How much a definition gains per question word its name or path contains, against search scores.
WORD_WEIGHT = 1.0
# Lines that declare what a file imports or the namespace it is in (``import``, ``using``, ``package``,
# ``#include``, Rust's ``use`` and ``mod x;``, a Go import group's paths), or close a block: a span of only these
# is no code worth reading.
HEADER_LINE = re.compile(
    r"\s*(?:(?:import|using|namespace|package|use|require|require_once|extern\s+crate)\b.*|from\s+\S+\s+import\b.*"
    r"|#\s*include\b.*|mod\s+\w+\s*;|(?:[\w.]+\s+)?\"[^\"]*\"|[{}();]*)"
)
# Lines a definition's span starts with before the definition itself: doc comments and annotations
# (``/**``, ``// ...``, `` * ...``, ``#[derive]``, ``@Override``, ``[HttpGet]``).
PREAMBLE_LINE = re.compile(r"\s*(?://|/\*|\*|#!?\[|@\w|\[\w)")


@dataclass(frozen=True)
class ExtractedAnswer:
    text: str
    spans: tuple[Span, ...]


def question_words(question: str) -> list[str]:
    """The content words of a question, lowercased, identifiers split on ``_`` and case."""
    words: list[str] = []
    for token in re.findall(r"[A-Za-z][A-Za-z0-9_]*", question):
        pieces = re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", token.replace("_", " ")) or [token]
        for piece in pieces:
            word = piece.lower()
            if len(word) > 2 and word not in STOP_WORDS and word not in words:
                words.append(word)
    return words


def _tokens(text: str) -> set[str]:
    return {piece.lower() for piece in re.findall(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])", text.replace("_", " "))}


def _stem_match(word: str, tokens: set[str]) -> bool:
    # "views" matches "view", "logins" matches "login": a cheap plural fold.
    return any(token == word or token.rstrip("s") == word.rstrip("s") for token in tokens)


def _coverage(words: list[str], *texts: str) -> int:
    tokens = set().union(*(_tokens(text) for text in texts))
    return sum(1 for word in words if _stem_match(word, tokens))


@dataclass(frozen=True)
class _Definition:
    qname: str
    written: str  # as its language writes it (``SymbolInfo.written``)
    kind: str  # as its language says it (``SymbolInfo.kind_word``)
    path: str
    start_line: int
    end_line: int
    signature: str
    docstring: str
    score: float


def _named_entrypoints(question: str, entries: list[rag.EntrypointInfo]) -> list[rag.EntrypointInfo]:
    """The entrypoints the question names whole: a command of two words or more (``gh alias delete``) or a
    route's path without parameters (``/api/users``), of the method it names if any; of two it names where
    one starts the other, the longer."""
    tokens = [token.strip(ENTRYPOINT_TOKEN_ENDS) for token in question.lower().split()]
    text = f" {' '.join(tokens)} "
    paths = {token.rstrip("/") for token in tokens if token.startswith("/")}
    named = []
    for entry in entries:
        written = entry.route_or_command.lower()
        if entry.entry_type == "http_route":
            if written.strip("/") and not ROUTE_PARAMETER.search(written) and written.rstrip("/") in paths:
                named.append(entry)
        elif len(written.split()) > 1 and f" {written} " in text:
            named.append(entry)
    # A method the question names with the route (``GET /api/articles``) chooses among the route's entries.
    methods = set(HTTP_METHOD.findall(question))
    if methods:
        named = [entry for entry in named if not entry.methods or methods & set(entry.methods)]
    return [
        entry for entry in named
        if not any(
            other.route_or_command != entry.route_or_command
            and other.route_or_command.startswith(entry.route_or_command.rstrip("/") + ("/" if entry.entry_type == "http_route" else " "))
            for other in named
        )
    ]


def _candidates(
    toolbox: ProjectToolbox, question: str, words: list[str], found: list[rag.SearchResult], handlers: set[str],
) -> tuple[list[_Definition], set[str]]:
    """The definitions the search found, the question names or handle the entrypoints it names, each scored by
    search score plus how many question words its name and path hold; and the names the question spells out."""
    by_qname: dict[str, _Definition] = {}

    def consider(symbol: rag.SymbolInfo, score: float) -> None:
        ranked = score + WORD_WEIGHT * (_coverage(words, symbol.name) + 0.5 * _coverage(words, symbol.path))
        known = by_qname.get(symbol.qname)
        if known is None or ranked > known.score:
            by_qname[symbol.qname] = _Definition(
                symbol.qname, symbol.written, symbol.kind_word, symbol.path, symbol.start_line, symbol.end_line, symbol.signature,
                symbol.docstring, ranked,
            )

    # The symbols of the results: a catalog entry's, and a code chunk's that is one symbol's block (its
    # file may be the one the ranking puts first while the catalog entries found are elsewhere).
    scores: dict[tuple[str, str], float] = {}
    for item in found:
        qname = item.title if item.layer == "C1_SYMBOL_CATALOG" else (item.metadata or {}).get("symbol")
        if qname and item.layer in ("C1_SYMBOL_CATALOG", "C0_SOURCE_CHUNKS"):
            scores.setdefault((qname, item.path), item.score)
    for symbol in rag.symbols_at(toolbox.repository, scores):
        consider(symbol, scores[symbol.qname, symbol.path])
    # Names the question spells out (``login_view``, ``orders.views``, ``MustNewServer``), or its words joined that way.
    # C++ and Rust write ``fmt::format_to`` for ``fmt.format_to``.
    spelled = {
        word.strip(".") for word in re.findall(r"[A-Za-z_][A-Za-z0-9_.]*", question.replace("::", "."))
        if "_" in word or "." in word.strip(".") or re.search(r"[a-z][A-Z]", word)
    }
    guesses = spelled | {"_".join(pair) for pair in zip(words, words[1:])} | set(words) | handlers
    for guess in sorted(guesses):
        for symbol in rag.find_symbol(toolbox.repository, guess, limit=5):
            consider(symbol, 0.0)
    return list(by_qname.values()), {name.rsplit(".", 1)[-1] for name in spelled}


def _in_tests(definition: _Definition) -> bool:
    """Whether a definition is test code: in a test file, or in a module of tests inside a source file
    (Rust's ``#[cfg(test)] mod tests``: ``crate::assets::tests::SyntaxDetectionTest``)."""
    return looks_like_test_path(definition.path) or "tests" in definition.qname.split(".")[:-1]


def _ranked(
    candidates: list[_Definition], names: set[str], words: list[str], files: list[str], *, about_tests: bool,
    handlers: set[str] = frozenset(),
) -> list[_Definition]:
    """The best definition, then the others whose names hold a question word.

    The handler of an entrypoint the question names (``gh alias delete``) comes first, then a definition
    whose name the question spells out (``format_to``, ``MustNewServer``),
    and one in a test file after the others, or before them when the question is about tests (the file
    ranking puts code first); then definitions in the order of their files in ``files`` (the search's
    file ranking), and in one file by score.
    """
    position = {path: i for i, path in enumerate(files)}
    ranked = sorted(
        candidates,
        key=lambda d: (
            d.qname not in handlers, d.qname.rsplit(".", 1)[-1] not in names, _in_tests(d) != about_tests,
            position.get(d.path, len(position)), -d.score, d.path, d.start_line,
        ),
    )
    if not ranked:
        return []
    best, rest = ranked[0], [d for d in ranked[1:] if d.qname in handlers or _coverage(words, d.qname.rsplit(".", 1)[-1])]
    return [best, *rest][:MAX_DEFINITIONS]


def _extract(toolbox: ProjectToolbox, question: str) -> ExtractedAnswer:
    words = question_words(question)
    try:
        # The question as asked: the search reads the names, paths and words in it as ``search_code`` does.
        response = rag.search(toolbox.repository, question, mode="code", limit=min(200, toolbox.caps.items * 3))
    except rag.SearchError:
        response = None
    found = response.items if response is not None else []
    about_tests = response is not None and response.hints is not None and response.hints.about_tests
    files = rag.ranked_files(response, limit=toolbox.caps.files) if response is not None else []
    all_entries = rag.list_entrypoints(toolbox.repository, limit=500)
    named_entries = set(_named_entrypoints(question, all_entries))
    handlers = {entry.handler for entry in named_entries if entry.handler}
    candidates, names = _candidates(toolbox, question, words, found, handlers)
    definitions = _ranked(candidates, names, words, [f.path for f in files], about_tests=about_tests, handlers=handlers)
    top_qnames = {d.qname for d in definitions}
    # Entrypoints the question names first, then those handled by a chosen definition, then those whose route or
    # command has a question word, then those of a kind the question asks about.
    kinds = {kind for pattern, kind in ENTRYPOINT_QUESTIONS if pattern.search(question)}
    entries = sorted(
        (
            entry
            for entry in all_entries
            if (entry.handler and entry.handler in top_qnames) or _coverage(words, entry.route_or_command)
            or entry.entry_type in kinds or entry in named_entries
        ),
        key=lambda entry: (
            entry not in named_entries, entry.handler not in top_qnames, not _coverage(words, entry.route_or_command),
            entry.path, entry.start_line,
        ),
    )[:MAX_ENTRYPOINTS]
    # The code in the file ranking's order, as ``search_code`` shows it.
    in_order = in_file_order(found, files)
    code = [item for item in in_order if item.layer == "C0_SOURCE_CHUNKS" and not _only_header(item.content)][:MAX_SPANS]
    # Callers in the code before callers in its tests (unless the question is about tests), each in path order.
    calls = sorted(
        rag.callers(toolbox.repository, definitions[0].qname, depth=1) if definitions else [],
        key=lambda edge: not about_tests and looks_like_test_path(edge.path),
    )[:MAX_CALLERS]

    # A quoted name that is a definition found above is shown by it.
    defined = {name for d in definitions for name in (d.written, d.qname, d.qname.rsplit(".", 1)[-1])}
    written = _written(toolbox, question, defined)
    packages, declared = _dependencies(toolbox, question)

    if not (definitions or entries or code or written or packages):
        return ExtractedAnswer(f"{NO_MODEL_NOTE}\n\n{NOTHING_FOUND}", ())

    spans: list[Span] = []
    parts = [NO_MODEL_NOTE]
    if packages:
        # What a question about packages asks for: first.
        more = f" (the first {len(packages)} of {declared})" if declared > len(packages) else ""
        lines = [
            f"- {d.ecosystem} `{d.name}` {f'`{d.version}`' if d.version else '(no version written)'} ({d.scope}) in `{d.path}:{d.line}`"
            for d in packages
        ]
        spans.extend(Span(d.path, d.line, d.line, "C0_SOURCE_CHUNKS", 0.0) for d in packages)
        parts.append(f"Declared dependencies{more}:\n" + "\n".join(lines))
    if definitions:
        best = definitions[0]
        spans.extend(Span(d.path, d.start_line, d.end_line, "C1_SYMBOL_CATALOG", round(d.score, 6)) for d in definitions)
        lead = (
            f"The best match is the {best.kind} `{best.written}`, defined in "
            f"`{best.path}:{best.start_line}-{best.end_line}`."
        )
        if best.signature:
            lead += f" Its signature is `{best.signature}`."
        if best.docstring:
            lead += f" Its {rag.doc_word(best.path)} says: \u201c{best.docstring.strip().splitlines()[0]}\u201d"
        parts.append(lead)
        if len(definitions) > 1:
            parts.append(
                "Other definitions that match:\n"
                + "\n".join(f"- {d.kind} `{d.written}` in `{d.path}:{d.start_line}-{d.end_line}`" for d in definitions[1:])
            )
    for text, matches in written:
        more = " (and more)" if matches.truncated else ""
        lines = [f"- `{m.citation}`: `{m.text.strip()[:100]}`" for m in matches.matches]
        spans.extend(Span(m.path, m.line, m.line, "text", 0.0) for m in matches.matches)
        parts.append(f"\u201c{text}\u201d is written at{more}:\n" + "\n".join(lines))
    names = rag.written_names(toolbox.repository.active_run, [edge.src for edge in calls] + [entry.handler for entry in entries])
    if calls:
        lines = [f"- `{names.get(edge.src, edge.src)}` at `{edge.path}:{edge.line}`" for edge in calls]
        spans.extend(Span(edge.path, edge.line, edge.line, "C2_DEPENDENCY_GRAPH", 0.0) for edge in calls)
        parts.append(f"`{definitions[0].qname.rsplit('.', 1)[-1]}` is called from:\n" + "\n".join(lines))
    if entries:
        lines = []
        for entry in entries:
            methods = f" ({', '.join(entry.methods)})" if entry.methods else ""
            target = f" handled by `{names.get(entry.handler, entry.handler)}`" if entry.handler else ""
            kind = entry.entry_type.replace("_", " ")
            lines.append(f"- {kind} `{entry.route_or_command}`{methods}{target}, declared at `{entry.path}:{entry.start_line}-{entry.end_line}`")
            spans.append(Span(entry.path, entry.start_line, entry.end_line, "C3_ENTRYPOINTS", 0.0))
        parts.append("Entrypoints that lead there:\n" + "\n".join(lines))
    if code:
        lines = []
        for item in code:
            lines.append(f"- `{item.citation}`: `{_first_code_line(item.content)[:100]}`")
            spans.append(Span(item.path, item.start_line, item.end_line, item.layer, round(item.score, 6)))
        parts.append("Code worth reading:\n" + "\n".join(lines))
    return ExtractedAnswer("\n\n".join(parts), tuple(spans))


def _written(toolbox: ProjectToolbox, question: str, defined: set[str]) -> list[tuple[str, rag.TextMatches]]:
    """Where each text the question quotes is written, as the agent's ``search_text`` finds it (texts found nowhere,
    and names of ``defined`` definitions, left out)."""
    found = []
    for text in quoted_texts(question):
        if text in defined:
            continue
        try:
            matches = rag.search_text(toolbox.repository, text, limit=MAX_QUOTED_LINES)
        except rag.TextSearchError:
            continue
        if matches.matches:
            found.append((text, matches))
    return found


def _dependencies(toolbox: ProjectToolbox, question: str) -> tuple[list[rag.Dependency], int]:
    """The declared packages the question names (``rag.named_dependencies``), or all of them (runtime ones
    first) when it asks about the packages as such; and how many there are of what it asks for."""
    chosen = list(rag.named_dependencies(toolbox.repository, question))
    if not chosen and DEPENDENCY_QUESTION.search(question):
        declared = rag.list_dependencies(toolbox.repository).dependencies
        chosen = sorted(declared, key=lambda d: d.scope not in ("runtime", "compile", "implementation", "api"))
    return chosen[:MAX_DEPENDENCIES], len(chosen)


def _only_header(content: str) -> bool:
    """Whether a span holds only imports, namespace declarations and braces (and the comments between them)."""
    return all(HEADER_LINE.fullmatch(line) or PREAMBLE_LINE.match(line) for line in content.splitlines())


def _first_code_line(content: str) -> str:
    """The line a span is quoted by: its first line past doc comments and annotations, else its first line."""
    lines = [line.strip() for line in content.splitlines() if line.strip()]
    return next((line for line in lines if not PREAMBLE_LINE.match(line)), lines[0] if lines else "")


async def extractive_answer(toolbox: ProjectToolbox, question: str) -> ExtractedAnswer:
    return await in_database_pool(_extract)(toolbox, question)
