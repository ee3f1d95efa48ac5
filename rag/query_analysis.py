"""What a query's text says: code hints (names, qualified names, file paths, routes,
traceback frames and the files and lines of other stack traces, links to a code
host's files), the words full-text search uses and their English stems (what the
file ranking matches to paths), and the boilerplate issue texts paste around the
problem (reports, banners, prompts, an issue template's comments).

Every pattern here reads text a user typed, and is written to run in time
linear in its input (``tests/rag/test_query_analysis_fuzz.py``).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache

import snowballstemmer

from rag.analysis.languages.spec import specs
from rag.terms import IDENTIFIER, STOP_WORDS, split_identifier

# Query analysis reads at most this much of a query (the longest issue texts of
# the evaluation sets are under 25,000 characters); with the linear patterns
# below this bounds the work a query can ask for, whatever its content.
MAX_ANALYSED_CHARS = 64 * 1024

TRACEBACK_LINE = re.compile(r'File "([^"]+)", line (\d+)(?:, in ([A-Za-z_<>][\w<>]*))?')
# A relative path; an absolute one (``/app/src/x.go``) only where a line number follows it (below).
_FOLDERS = r"(?:[\w.-]+/)*[\w-]+\."
_PATH_START = rf"(?<![\w/.-])({_FOLDERS}"
# The suffixes of source files (a stack trace's line names one), and of the other files a query may name.
# Python's, and those every language folder of the analysis names (``languages/*/language.toml``).
_SOURCE_SUFFIXES = ("py", "pyi", *sorted(suffix.removeprefix(".") for suffix in specs()))
_OTHER_SUFFIXES = ("md", "rst", "txt", "html", "css", "toml", "cfg", "ini", "json", "yml", "yaml")
_FILE_SUFFIXES = frozenset((*_SOURCE_SUFFIXES, *_OTHER_SUFFIXES))
_SOURCE_SUFFIX = "|".join(_SOURCE_SUFFIXES)
FILE_PATH = re.compile(rf"{_PATH_START}(?:{_SOURCE_SUFFIX}|{'|'.join(_OTHER_SUFFIXES)}))\b")
# A source file and line in the other languages' stack traces, panics, sanitizer reports and compiler
# messages: ``src/lib.rs:10:5`` (Rust), ``/app/x.go:123 +0x1d`` (Go), ``(Gson.java:932)`` (Java, Kotlin),
# ``(/app/x.js:10:5)`` (Node), ``a.cc:12:3`` (C, C++), ``x.rb:12:in`` (Ruby), ``File.cs:line 12`` (C#),
# ``x.php(12)`` (PHP), ``(Cart.scala:41)`` (Scala), ``Cart.swift:7:`` (Swift), ``cart.dart:15:5`` (Dart),
# ``lib/shop/cart.ex:12:`` (Elixir), ``app/cart.lua:12:`` (Lua), ``deploy.sh: line 12:`` (bash).
SOURCE_LINE = re.compile(rf"(?<![\w/.-])(/?{_FOLDERS}(?:{_SOURCE_SUFFIX}))(?::(?: ?line )?+|\()(\d{{1,9}})\b")
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
# A capitalised word inside a sentence of a one-line question: "how does Send find the handler?",
# "what does Mediator do" (C#, Go and Java name methods and types so). Not the first word of a
# sentence, which English capitalises anyway, nor a word of a run of them, which is a title ("405
# Method Not Allowed"); in an issue's text such words are mostly prose.
CAPITALISED_INSIDE_SENTENCE = re.compile(r"(?<=[A-Za-z0-9,;:)\]'\"`] )[A-Z][a-z0-9]++\b")
_CAPITAL_INSIDE = re.compile(r".[A-Z]")
_LOWER = re.compile(r"[a-z]")
SNAKE_CASE = re.compile(r"\b_{0,2}[a-z][a-z0-9]*+(?:_[a-z0-9]++)++_{0,2}\b")
# URL paths such as /shop/checkout or /orders/<int:pk>/ (at least one letter, not a file path).
_ROUTE_SEGMENT = r"(?:[A-Za-z0-9_\-.]++|<[^<>/\s]++>|\{[^{}/\s]++\})"
ROUTE = re.compile(rf"(?<![\w.])(/{_ROUTE_SEGMENT}(?:/{_ROUTE_SEGMENT})*+/?)")
CALL = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\(")
# A web address, up to the first character no address has (or one prose puts around it).
URL = re.compile(r"https?+://[^\s<>()\[\]{}\"'`|\\^]++")
# Where a code host's address of a file says what comes next: the ref, then the file's path
# (GitHub's ``/blob/``, ``/blame/``, ``/raw/``; GitLab's ``/-/blob/``; Bitbucket's, Gitea's and
# Forgejo's ``/src/``, which these two may follow with ``branch``, ``tag`` or ``commit``).
_FILE_MARKERS = frozenset({"blob", "blame", "raw", "src"})
_REF_KINDS = frozenset({"branch", "tag", "commit"})
# The line an address points at: ``#L61``, ``#L61-L70``, ``#L61C5`` (GitHub, Gitea), ``#L61-70``
# (GitLab), ``#lines-61`` (Bitbucket).
_URL_LINE = re.compile(r"(?:L|lines-)(\d{1,9})")
# At most this many addresses of a query are read for files.
_MAX_URLS = 50
# Folders of code that shows or measures the project rather than being it: examples (``samples/`` in
# .NET and many SDKs, ``demo/`` in front-end projects), tutorials, galleries, docs and benchmarks.
AUXILIARY_FOLDER_NAMES = r"examples?|samples?|demos?|tutorials?|galler(?:y|ies)|docs?|benchmarks?|asv_bench"
# "for example" is prose: only words and paths that point at such folders count.
EXAMPLE_WORDS = re.compile(
    rf"\b(?:tutorials?|galler(?:y|ies)|docs|documentation|benchmarks?)\b|\b(?:{AUXILIARY_FOLDER_NAMES})/",
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
    return dotted.rsplit(".", 1)[-1] in _FILE_SUFFIXES


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
    for match in SOURCE_LINE.finditer(query):
        hints.frames.append(TracebackFrame(match.group(1), int(match.group(2)), None))
    for path, line in code_host_files(query):
        hints.paths.add(path)
        if line is not None:
            hints.frames.append(TracebackFrame(path, line, None))
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
    if "\n" not in query.strip():
        hints.names.update(_capitalised_names(query))
    hints.names.update(m.group(0) for m in SNAKE_CASE.finditer(query))
    hints.names.update(m.group(1) for m in CALL.finditer(query) if m.group(1) not in STOP_WORDS)
    hints.names = {n for n in hints.names if len(n) > 2 and n.lower() not in STOP_WORDS}
    return hints


def _capitalised_names(line: str) -> list[str]:
    """The words ``CAPITALISED_INSIDE_SENTENCE`` finds whose neighbouring words it does not find too."""
    matches = list(CAPITALISED_INSIDE_SENTENCE.finditer(line))
    found = []
    for i, match in enumerate(matches):
        # The words next to it in the line, when they are such words too: a run of them is a title.
        before = i > 0 and not line[matches[i - 1].end() : match.start()].strip()
        after = i + 1 < len(matches) and not line[match.end() : matches[i + 1].start()].strip()
        if not (before or after):
            found.append(match.group(0))
    return found


def code_host_files(query: str) -> list[tuple[str, int | None]]:
    """The files, and lines, that a query's links to a code host point at.

    ``https://github.com/o/r/blob/<ref>/src/parse.ts#L61`` is ``src/parse.ts`` at line 61; so are
    GitLab's ``/-/blob/``, Bitbucket's and Gitea's ``/src/`` addresses, GitHub's ``/blame/`` and
    ``/raw/`` ones and ``raw.githubusercontent.com/o/r/<ref>/...``. The ref is taken to be one
    segment (a commit or a branch without a slash): a branch with slashes leaves some of its name
    in front of the path, and paths are matched by their ending. A folder's address (``/tree/``) and
    an address with no file name after the ref name no file.
    """
    files = []
    for match in URL.finditer(query[:MAX_ANALYSED_CHARS]):
        if len(files) == _MAX_URLS:
            break
        # Prose may end a sentence right after an address.
        address, _, fragment = match.group(0).rstrip(".,;:!?").partition("#")
        host, _, rest = address.split("://", 1)[1].partition("/")
        segments = rest.split("?", 1)[0].split("/")
        if host.lower() == "raw.githubusercontent.com":
            path = segments[3:]
        else:
            # Right after the owner and the repository, or after GitLab's ``-`` (its groups nest).
            marker = next(
                (i for i, segment in enumerate(segments) if segment in _FILE_MARKERS and (i == 2 or i > 2 and segments[i - 1] == "-")),
                None,
            )
            if marker is None:
                continue
            after = segments[marker + 1 :]
            if after and after[0] in _REF_KINDS:
                after = after[1:]
            path = after[1:]
        if not path or "" in path or "." not in path[-1].strip("."):
            continue
        line = _URL_LINE.match(fragment)
        files.append(("/".join(path), int(line.group(1)) if line else None))
    return files


# Text a query quotes: in backticks or double quotes, or in single quotes that no word touches (not the
# apostrophes of "don't ... it's"). Bounded runs of one character class: linear in the query's length.
_QUOTED = re.compile(r"`([^`\n]{1,200})`|\"([^\"\n]{1,200})\"|(?<!\w)'([^'\n]{1,200})'(?!\w)")
MAX_QUOTED = 3


def quoted_texts(query: str) -> list[str]:
    """The first ``MAX_QUOTED`` distinct texts a query quotes, as written (``jackson-databind``, "Unknown format code")."""
    found: list[str] = []
    for match in _QUOTED.finditer(query[:MAX_ANALYSED_CHARS]):
        text = next(group for group in match.groups() if group is not None).strip()
        if len(text) >= 3 and text not in found:
            found.append(text)
            if len(found) == MAX_QUOTED:
                break
    return found


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


def _without_comments(text: str) -> str:
    """``text`` without its HTML comments (``<!-- ... -->``); an unclosed one is kept."""
    kept = []
    position = 0
    while (start := text.find("<!--", position)) != -1:
        end = text.find("-->", start + 4)
        if end == -1:
            break
        kept.append(text[position:start])
        position = end + 3
    kept.append(text[position:])
    return " ".join(kept) if len(kept) > 1 else text


# What makes two lines of a template and an issue the same: Markdown's heading, list, quote and emphasis
# marks around the words, and their case (the template's ``**Describe the bug**``, the issue's
# ``### Describe the bug``). Lines shorter than this once read so are kept: they say too little to tell.
_LEADING_MARKS = " \t#>*_`-+"
_TRAILING_MARKS = " \t*_`:"
TEMPLATE_LINE_MIN_CHARS = 12
# Where an issue form (``.github/ISSUE_TEMPLATE/*.yml``) writes the text the page shows.
_FORM_TEXT = re.compile(r"^\s*+(?:-\s++)?(?:label|description|placeholder|value|about|title|name):\s*+[|>]?[-+]?\s*+(.*)$")


def template_line(line: str) -> str:
    """A line as an issue template and an issue that follows it both write it: without Markdown's marks, lowercase."""
    return line.lstrip(_LEADING_MARKS).rstrip(_TRAILING_MARKS).lower()


def template_lines(text: str) -> frozenset[str]:
    """The lines of an issue template (Markdown, or an issue form's labels and descriptions) an issue may repeat."""
    lines = set()
    for line in text.splitlines():
        form = _FORM_TEXT.match(line)
        read = template_line(form.group(1).strip().strip("'\"") if form else line)
        if len(read) >= TEMPLATE_LINE_MIN_CHARS:
            lines.add(read)
    return frozenset(lines)


def without_boilerplate(text: str, template: frozenset[str] = frozenset()) -> str:
    """``text`` without what issue texts paste around the problem: reports, banners, prompts.

    Version and environment reports (``show_versions()``, ``pip list``,
    system info) list dozens of package names and versions that say nothing
    about where the problem is, but match the files that print such reports:
    a run of at least four report lines (blank lines and short headings such
    as ``System:`` or ``Python deps:`` inside it allowed) is removed. So are
    interpreter banners (``IPython 5.1.0 -- An enhanced Interactive Python``),
    which match the project's own shell code, and console prompts
    (``In [3]:``, ``Out[3]:``, ``>>>``), whose words would count as the query's.
    So are HTML comments: an issue template's instructions to the reporter
    ("Please check if the issue is resolved after a restart of the browser"),
    which the issue's page does not show; and the lines the issue repeats
    from its repository's issue templates (``template``, from ``template_lines``:
    "Describe the bug", "Expected behavior", "Environment (please complete the
    following information)"), which every issue that follows them has.
    """
    text = _PROMPT.sub(r"\1", _without_comments(text[:MAX_ANALYSED_CHARS]))
    lines = [
        line for line in text.splitlines()
        if not _BANNER_LINE.match(line) and not (template and template_line(line) in template)
    ]
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
