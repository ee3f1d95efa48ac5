"""What a query's text says: code hints (names, qualified names, file paths, routes,
traceback frames), the words full-text search uses and their English stems (what
the file ranking matches to paths), and the boilerplate issue texts paste around
the problem (reports, banners, prompts).

Every pattern here reads text a user typed, and is written to run in time
linear in its input (``tests/rag/test_query_analysis_fuzz.py``).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache

import snowballstemmer

from rag.terms import IDENTIFIER, STOP_WORDS, split_identifier

# Query analysis reads at most this much of a query (the longest issue texts of
# the evaluation sets are under 25,000 characters); with the linear patterns
# below this bounds the work a query can ask for, whatever its content.
MAX_ANALYSED_CHARS = 64 * 1024

TRACEBACK_LINE = re.compile(r'File "([^"]+)", line (\d+)(?:, in ([A-Za-z_<>][\w<>]*))?')
FILE_PATH = re.compile(
    r"(?<![\w/.-])((?:[\w.-]+/)*[\w-]+\.(?:py|pyi|md|rst|txt|js|mjs|cjs|ts|tsx|jsx|go|java|kts?|rs|c|h|cc|cpp|cxx|hh|hpp|hxx|cs|rb|php"
    r"|html|css|toml|cfg|ini|json|ya?ml))\b"
)
DOTTED = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)+\b")
# Qualified names in the other languages' own forms: ``fmt::format_to``, ``crate::walk::WalkBuilder``
# (C++, Rust, PHP's ``::``), ``JsonParser#nextToken`` (Java and Kotlin docs). A name can start only
# where no name character or separator is before it, so every attempt starts at a new name.
QUALIFIED = re.compile(r"(?<![\w:#])[A-Za-z_]\w*+(?:(?:::|#)[A-Za-z_]\w*+)++")
# The separators of those forms, and PHP's ``\`` (``\Slim\Routing\Route``).
_QUALIFIER = re.compile(r"::|#|\\")
_GO_RECEIVER = re.compile(r"\(\*?+(\w++)\)")
# Where a Rust path may start; the index names items from the repository's own folders.
_RUST_ROOTS = ("std", "crate", "self", "super")
# Every pattern below is applied to text a user typed, so each is written to
# run in time linear in its input: possessive quantifiers (``*+``, ``++``) and
# atomic groups give nothing back where giving back could never lead to a match
# (a run of letters that must end at a word boundary), and bracketed parts
# (``<int:pk>``) cannot contain their own opening bracket or a slash, so no
# match attempt scans past the next segment. ``tests/rag/test_query_analysis_fuzz.py``
# holds them to linear growth on adversarial inputs.
# A word of letters and digits; it is a CamelCase name when it has a lower-case letter and a capital
# after its first character (``HttpResponse``, ``getUser``, and acronym-led ``URLField``, ``IOError``).
WORD = re.compile(r"\b[A-Za-z][A-Za-z0-9]*+\b")
_CAPITAL_INSIDE = re.compile(r".[A-Z]")
_LOWER = re.compile(r"[a-z]")
SNAKE_CASE = re.compile(r"\b_{0,2}[a-z][a-z0-9]*+(?:_[a-z0-9]++)++_{0,2}\b")
# URL paths such as /shop/checkout or /orders/<int:pk>/ (at least one letter, not a file path).
_ROUTE_SEGMENT = r"(?:[A-Za-z0-9_\-.]++|<[^<>/\s]++>|\{[^{}/\s]++\})"
ROUTE = re.compile(rf"(?<![\w.])(/{_ROUTE_SEGMENT}(?:/{_ROUTE_SEGMENT})*+/?)")
CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\(")
# "for example" is prose: only words and paths that point at such folders count.
EXAMPLE_WORDS = re.compile(
    r"\b(?:tutorials?|galler(?:y|ies)|docs|documentation|benchmarks?)\b|\b(?:examples?|tutorials?|galler(?:y|ies)|docs?)/",
    re.IGNORECASE,
)
TEST_WORDS = re.compile(r"\b(tests?|testing|pytest|unittest|test_\w+|\w+_test|fixtures?|conftest)\b", re.IGNORECASE)


@dataclass(frozen=True)
class TracebackFrame:
    path: str
    line: int
    function: str | None


@dataclass
class QueryHints:
    """What in a query looks like code."""

    names: set[str] = field(default_factory=set)  # short symbol names, as written
    dotted: set[str] = field(default_factory=set)  # qualified names / module paths
    paths: set[str] = field(default_factory=set)  # file paths
    frames: list[TracebackFrame] = field(default_factory=list)
    routes: set[str] = field(default_factory=set)  # URL paths
    about_tests: bool = False
    about_examples: bool = False

    @property
    def has_code(self) -> bool:
        return bool(self.names or self.dotted or self.paths or self.frames or self.routes)


def _is_file_like(dotted: str) -> bool:
    return dotted.rsplit(".", 1)[-1] in {
        "py", "pyi", "md", "rst", "txt", "js", "mjs", "cjs", "ts", "tsx", "jsx", "go", "java", "kt", "kts", "rs", "c", "h",
        "cc", "cpp", "cxx", "hh", "hpp", "hxx", "cs", "rb", "php", "html", "css", "json", "toml", "cfg", "ini", "yml", "yaml",
    }


def query_hints(query: str) -> QueryHints:
    query = query[:MAX_ANALYSED_CHARS]
    hints = QueryHints(about_tests=bool(TEST_WORDS.search(query)), about_examples=bool(EXAMPLE_WORDS.search(query)))
    for match in TRACEBACK_LINE.finditer(query):
        frame = TracebackFrame(match.group(1).replace("\\", "/"), int(match.group(2)), match.group(3))
        hints.frames.append(frame)
        if frame.function and not frame.function.startswith("<"):
            hints.names.add(frame.function)
    for match in FILE_PATH.finditer(query):
        hints.paths.add(match.group(1))
    for match in ROUTE.finditer(TRACEBACK_LINE.sub(" ", query)):
        route = match.group(1)
        if any(ch.isalpha() for ch in route) and not FILE_PATH.fullmatch(route.strip("/")) and route.count("/") < 12:
            hints.routes.add(route.rstrip("/") or "/")
    for match in DOTTED.finditer(query):
        value = match.group(0)
        if _is_file_like(value) or value.count(".") > 6:
            continue
        hints.dotted.add(value)
        hints.names.add(value.rsplit(".", 1)[-1])
    for match in QUALIFIED.finditer(query):
        parts = dotted_name(match.group(0)).split(".")
        if len(parts) <= 7:
            hints.dotted.add(".".join(parts))
        hints.names.add(parts[-1])
    for match in WORD.finditer(query):
        word = match.group(0)
        if _CAPITAL_INSIDE.search(word) and _LOWER.search(word):
            hints.names.add(word)
    hints.names.update(m.group(0) for m in SNAKE_CASE.finditer(query))
    hints.names.update(m.group(1) for m in CALL.finditer(query) if m.group(1) not in STOP_WORDS)
    hints.names = {n for n in hints.names if len(n) > 2 and n.lower() not in STOP_WORDS}
    return hints


def dotted_name(written: str) -> str:
    """A qualified name in the form the index keeps every language's, with dots: ``crate::walk::WalkBuilder::new``
    is ``walk.WalkBuilder.new``, ``Sinatra::Base#route`` is ``Sinatra.Base.route``, ``\\Slim\\App`` is
    ``Slim.App``; a Rust path's root (``crate``, ``std``, ``self``, ``super``) is left out when two names follow it.
    Go's forms name the package by its import path's last folder and a method by its receiver's type:
    ``github.com/x/app/rest.(*Server).Start`` is ``rest.Server.Start``."""
    written = _GO_RECEIVER.sub(r"\1", written.strip().rsplit("/", 1)[-1])
    parts = [part for part in _QUALIFIER.split(written) if part]
    if len(parts) > 2 and parts[0] in _RUST_ROOTS:
        parts = parts[1:]
    return ".".join(parts)


TRACEBACK_HEADER = re.compile(r"Traceback \(most recent call last\):")


# One line of an environment report: ``numpy: 1.16.0``, ``LANG: en_US.UTF-8``, ``commit: None``,
# ``requests==2.31.0``, ``pandas    1.0.5`` (pip list), ``python-bits: 64``; never an
# assignment (``x = f(y)``).
# The value is a number-led text, or a list of bracket-free words where
# whitespace may only follow a comma (``a, b,c``). The list is one run of
# words and comma-led separators that cannot overlap: as words and separators
# that could both take a comma, a failing line had exponentially many ways to
# be split.
_REPORT_LINE = re.compile(
    r"^\s*+[\w.+\-]++(?::\s++|==|\s{2,}+)(?:[\w.+\-/]*\d\S*+(?:\s.*)?|[^\s()\[\]](?:[^\s()\[\],]++|,\s*+)*+)\s*$"
)
_REPORT_HEADING = re.compile(r"^\s*(?:#+\s*)?(?:[A-Za-z][\w ]{0,40}:|-{3,}|={3,}|INSTALLED VERSIONS|\[[^\]]*\])\s*$")
# Reports are runs of at least this many such lines (two ``key: value`` lines can be prose or code).
_REPORT_MIN_LINES = 4


# Interactive interpreter banners (Python, IPython) and the prompts of console sessions.
_BANNER_LINE = re.compile(
    r"^\s*(?:Python \d+\.\d+\S*(?: .*)?|Type .?(?:copyright|help).*|IPython \d+\.\d+.*|(?:\?|%quickref|help|object\?)\s+->.*)$"
)
# Indentation only: ``\s*`` would run across blank lines from every line start.
_PROMPT = re.compile(r"^([^\S\n]*)(?:In \[\d*\]:|Out\[\d*\]:|>>>|\.\.\.(?=\s))", re.MULTILINE)


def without_boilerplate(text: str) -> str:
    """``text`` without what issue texts paste around the problem: reports, banners, prompts.

    Version and environment reports (``show_versions()``, ``pip list``,
    system info) list dozens of package names and versions that say nothing
    about where the problem is, but match the files that print such reports:
    a run of at least four report lines (blank lines and short headings such
    as ``System:`` or ``Python deps:`` inside it allowed) is removed. So are
    interpreter banners (``IPython 5.1.0 -- An enhanced Interactive Python``),
    which match the project's own shell code, and console prompts
    (``In [3]:``, ``Out[3]:``, ``>>>``), whose words would count as the query's.
    """
    text = _PROMPT.sub(r"\1", text[:MAX_ANALYSED_CHARS])
    lines = [line for line in text.splitlines() if not _BANNER_LINE.match(line)]
    keep = [True] * len(lines)
    start = None
    count = 0
    for index, line in enumerate([*lines, "<end>"]):
        is_report = index < len(lines) and bool(_REPORT_LINE.match(line))
        is_filler = index < len(lines) and (not line.strip() or bool(_REPORT_HEADING.match(line)))
        if is_report:
            if start is None:
                start = index
            count += 1
            last = index
        elif is_filler and start is not None:
            continue
        else:
            if start is not None and count >= _REPORT_MIN_LINES:
                for covered in range(start, last + 1):
                    keep[covered] = False
            start, count = None, 0
    return "\n".join(line for line, kept in zip(lines, keep) if kept)


def lexical_words(query: str, limit: int = 32, *, repeats: bool = False) -> list[str]:
    """Distinct words of a query for an OR full-text query: identifiers split, stop words out.

    Traceback boilerplate is dropped (its frames are matched by path and line
    instead); a frame keeps only its function name. With ``repeats`` every
    occurrence of the first ``limit`` distinct words is kept, in query order
    (how often the query repeats a word tells how central it is).
    """
    query = TRACEBACK_LINE.sub(lambda m: f" {m.group(3) or ''} ", TRACEBACK_HEADER.sub(" ", query[:MAX_ANALYSED_CHARS]))
    words: list[str] = []
    seen: set[str] = set()
    for identifier in IDENTIFIER.findall(query):
        candidates = [identifier.lower()] if "." not in identifier and "_" not in identifier else []
        candidates += list(split_identifier(identifier))
        # A plain word is its own only part: count it once per occurrence.
        for word in dict.fromkeys(candidates):
            if len(word) < 2 or word in STOP_WORDS or word.isdigit():
                continue
            if word not in seen:
                if len(seen) == limit:
                    continue
                seen.add(word)
            elif not repeats:
                continue
            words.append(word)
    return words


# One stemmer per thread: a Snowball stemmer keeps the word it works on in itself.
_stemmers = threading.local()


@lru_cache(maxsize=100_000)
def word_stem(word: str) -> str:
    """A lowercase word's English stem (Snowball's, as PostgreSQL's ``english`` full-text search reads
    words): "hyperlinks" and "hyperlink", "colors" and "color" are one word when a query's words are
    matched to the words of a path."""
    stemmer = getattr(_stemmers, "english", None)
    if stemmer is None:
        stemmer = _stemmers.english = snowballstemmer.stemmer("english")
    return stemmer.stemWord(word)
