"""C and C++ as their users read them: namespaces, macros, includes, programs and tests."""

from __future__ import annotations

from rag.analysis.languages import written_name
from rag.analysis.repository import analyze_repository


def test_a_function_in_a_cpp_namespace_is_a_function_and_bare_calls_of_it_resolve():
    path = "include/fmt/format.h"
    text = (
        "namespace fmt {\n"
        "namespace detail {\n"
        "inline int helper(int x) { return x; }\n"
        "}\n"
        "int twice(int x) { return detail::helper(x) * 2; }\n"
        "class buffer {\n"
        " public:\n"
        "  int size() const { return detail::helper(1); }\n"
        "};\n"
        "}\n"
    )
    analysis = analyze_repository({path: text}).files[path]

    kinds = {written_name(s.qname, s.module, s.path, s.kind): s.kind for s in analysis.symbols}
    assert kinds == {
        "fmt::detail::helper": "function",
        "fmt::twice": "function",
        "fmt::buffer": "class",
        "fmt::buffer::size": "method",
    }
    assert {(edge.src, edge.dst) for edge in analysis.edges if edge.kind == "calls"} == {
        ("include.fmt.format.fmt.twice", "include.fmt.format.fmt.detail.helper"),
        ("include.fmt.format.fmt.buffer.size", "include.fmt.format.fmt.detail.helper"),
    }
