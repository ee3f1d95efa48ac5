"""Inputs the analysis once failed on, and what a fault of the analysis on one file costs: that file alone."""

from __future__ import annotations

from rag.analysis.chunking import split_lines
from rag.analysis.repository import analyze_repository


def test_manifest_tables_of_other_values_name_no_programs():
    files = {
        "Cargo.toml": '[package]\nname = "tool"\nbin = 3\nexample = true\n',
        "src/main.rs": "fn main() {}\n",
        "setup.py": 'from setuptools import setup\nsetup(name="x", entry_points={"console_scripts": 3, "gui_scripts": None})\n',
    }
    analysis = analyze_repository(files)

    assert not any(f.error for f in analysis.files.values())
    # The main function is still an entrypoint; the values that are no tables add none.
    entries = [(e.route_or_command, e.path) for f in analysis.files.values() for e in f.entrypoints]
    assert entries == [("main", "src/main.rs")]


def test_a_definition_that_runs_to_the_end_of_the_file_ends_on_its_last_line():
    scala = "def a =\n  object B {}\n" + "\n" * 120
    analysis = analyze_repository({"a.scala": scala}).files["a.scala"]

    lines = len(split_lines(scala))
    assert not analysis.error and analysis.symbols
    assert max(s.end_line for s in analysis.symbols) == lines
    assert all(1 <= c.start_line <= c.end_line <= lines for c in analysis.chunks)


def test_code_points_no_utf8_text_holds_are_read_as_replacement_characters():
    # A lone surrogate (what reading bytes with ``surrogateescape`` leaves) made tree-sitter's matching of the
    # import's text fail, and with it the analysis of every file.
    files = {
        "src/main/java/p/A.java": "import org.juni\ud800t.jupiter.api.Tag;\n\nclass A { void run() {} }\n",
        "src/main/java/p/B.java": "package p;\n\nclass B { void go() {} }\n",
    }
    analysis = analyze_repository(files)

    a, b = analysis.files["src/main/java/p/A.java"], analysis.files["src/main/java/p/B.java"]
    assert not a.error and [s.qname for s in a.symbols] == ["src.main.java.p.A.A", "src.main.java.p.A.A.run"]
    assert [s.qname for s in b.symbols] == ["p.B", "p.B.go"] and not b.error


def test_lines_broken_by_a_lone_carriage_return_are_lines_of_the_symbols_too():
    text = "// a\r// b\r// c\rfunction foo() {\r  return 1\r}\r\nfunction bar() { return foo() }\n"
    analysis = analyze_repository({"a.js": text}).files["a.js"]

    assert [(s.qname, s.start_line, s.end_line) for s in analysis.symbols] == [("a.foo", 4, 6), ("a.bar", 7, 7)]
    foo = next(c for c in analysis.chunks if c.title == "foo")
    assert foo.content.splitlines()[3] == "function foo() {" and foo.content.endswith("}")
