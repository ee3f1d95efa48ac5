"""C and C++ as their users read them: namespaces, macros, includes, programs and tests."""

from __future__ import annotations

import pytest

from rag.analysis.filetypes import artifact_type, detect_language
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


def test_a_function_like_macro_is_a_symbol_its_calls_reach_and_it_knows_no_namespace():
    files = {
        "src/jv.h": (
            "/** Iterates over the elements of an array. */\n"
            "#define jv_array_foreach(a, i, x) for (int i = 0; i < jv_array_length(a); i++)\n"
            "#define JV_MAX 10\n"
            "int jv_array_length(int a);\n"
        ),
        "src/jv.c": '#include "jv.h"\nint jv_sum(int a) { int s = 0; jv_array_foreach(a, i, x) { s += i; } return s; }\n',
        "test/gtest.h": "namespace testing {\n#define EXPECT_EQ(a, b) ::testing::expect_eq((a), (b))\n}\n",
        "test/format-test.cc": '#include "gtest.h"\nvoid test_format() { EXPECT_EQ(1, 1); }\n',
    }
    analysis = analyze_repository(files)

    macros = {(s.qname, s.kind, s.parent, s.docstring) for s in analysis.symbols() if s.name in ("jv_array_foreach", "EXPECT_EQ", "JV_MAX")}
    assert macros == {
        ("src.jv.jv_array_foreach", "function", None, "Iterates over the elements of an array."),
        ("test.gtest.EXPECT_EQ", "function", None, ""),
    }
    calls = {(edge.src, edge.raw): edge.dst for edge in analysis.edges() if edge.kind == "calls"}
    assert calls[("src.jv.jv_sum", "jv_array_foreach")] == "src.jv.jv_array_foreach"
    assert calls[("test.format_test.test_format", "EXPECT_EQ")] == "test.gtest.EXPECT_EQ"


def test_an_include_finds_the_header_in_the_top_include_folder_and_an_included_source_file():
    files = {
        "include/shop.h": '#include "shop/cart.h"\n',
        "include/shop/shop.h": "int shop_version(void);\n",
        "include/shop/cart.h": "int cart_total(void);\n",
        "tests/cart/cart_tests.c": '#include "shop.h"\nint main(void) { return cart_total(); }\n',
        "vendor/dec/decDouble.c": '#include "decCommon.c"\n',
        "vendor/dec/decCommon.c": "int dec_common(void) { return 0; }\n",
    }
    analysis = analyze_repository(files)

    includes = {(edge.path, edge.raw): edge.dst for edge in analysis.edges() if edge.kind == "imports"}
    assert includes == {
        ("include/shop.h", "shop/cart.h"): "include.shop.cart",
        ("tests/cart/cart_tests.c", "shop.h"): "include.shop",
        ("vendor/dec/decDouble.c", "decCommon.c"): "vendor.dec.decCommon",
    }


@pytest.mark.parametrize(
    "path",
    ["test/format-test.cc", "src/json_unittest.cpp", "fuzz/fuzz_parser.cpp", "tests/jq_fuzz_execute.cpp",
     "oss-fuzz/png_read_fuzzer.cc", "contrib/fuzzing/decode.c", "lib/parser_tests.cpp"],
)
def test_c_and_cpp_tests_and_fuzz_targets_are_test_files(path):
    assert artifact_type(path, detect_language(path)) == "test"


@pytest.mark.parametrize("path", ["src/format.cc", "include/simdjson/dom/parser.h", "src/fuzzy_match.c", "src/contest.cpp"])
def test_c_and_cpp_sources_are_not_taken_for_tests(path):
    assert artifact_type(path, detect_language(path)) == "code"


def test_a_c_or_cpp_main_names_its_program_by_its_file_and_a_main_file_by_its_folder():
    main = "int main(int argc, char **argv) { return 0; }\n"
    analysis = analyze_repository({
        "tests/dom/basictests.cpp": main,
        "tests/dom/jsoncheck.cpp": main,
        "vendor/decNumber/example1.c": main,
        "tools/pack/main.c": main,
    })

    assert {(entry.path, entry.route_or_command) for entry in analysis.entrypoints()} == {
        ("tests/dom/basictests.cpp", "basictests"),
        ("tests/dom/jsoncheck.cpp", "jsoncheck"),
        ("vendor/decNumber/example1.c", "example1"),
        ("tools/pack/main.c", "pack"),
    }
