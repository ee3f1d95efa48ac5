"""C and C++ as their users read them: namespaces, macros, includes, programs and tests."""

from __future__ import annotations

import pytest

from rag.analysis.filetypes import artifact_type, detect_language
from rag.analysis.languages.spec import written_name
from rag.analysis.repository import analyze_repository
from tests.rag.analysis.readings import entrypoint_rows


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
        "tools/json/minify.cpp": main,
        "tools/json/jsonstats.cpp": main,
        "vendor/decNumber/example1.c": main,
        "tools/pack/main.c": main,
    })

    assert {(entry.path, entry.route_or_command) for entry in analysis.entrypoints()} == {
        ("tools/json/minify.cpp", "minify"),
        ("tools/json/jsonstats.cpp", "jsonstats"),
        ("vendor/decNumber/example1.c", "example1"),
        ("tools/pack/main.c", "pack"),
    }


def _written(files: dict[str, str], path: str) -> set[tuple[str, str]]:
    symbols = analyze_repository(files).files[path].symbols
    return {(symbol.kind, written_name(symbol.qname, symbol.module, symbol.path, symbol.kind)) for symbol in symbols}


def test_c_typedefs_name_their_types_and_struct_tags_are_the_files():
    path = "src/jv.h"
    text = (
        "typedef struct jv_refcnt { int count; } jv_refcnt;\n"
        "typedef struct { int kind; } jv;\n"
        "typedef struct jv_parser_s { struct jv_frame { int n; } frame; } jv_parser;\n"
        "typedef jv (*cfunction_ptr)(jv input);\n"
        "typedef unsigned long jv_size;\n"
    )

    assert _written({path: text}, path) == {
        ("class", "jv_refcnt"), ("class", "jv"), ("class", "jv_parser"), ("class", "jv_parser_s"),
        ("class", "jv_frame"), ("class", "cfunction_ptr"), ("class", "jv_size"),
    }


def test_cpp_operators_destructors_template_members_specialisations_and_aliases_are_symbols():
    path = "include/fmt/os.h"
    text = (
        "namespace fmt::detail {\n"
        "class FMT_API file {\n"
        " public:\n"
        "  ~file() noexcept;\n"
        "  auto descriptor() const noexcept -> int { return fd_; }\n"
        "};\n"
        "inline bool operator==(const file& a, const file& b) { return a.fd_ == b.fd_; }\n"
        "file::~file() { close(); }\n"
        "std::ostream& operator<<(std::ostream& out, const file& f) { return out; }\n"
        "template <typename T> void basic_buffer<T>::grow(size_t n) { reserve(n); }\n"
        "template <> struct formatter<file> {\n"
        "  auto format(const file& f) const -> int { return 0; }\n"
        "};\n"
        "using ullong = unsigned long long;\n"
        "union value { int i; double d; };\n"
        "}\n"
    )

    assert _written({path: text}, path) == {
        ("class", "fmt::detail::file"),
        ("method", "fmt::detail::file::descriptor"),
        ("function", "fmt::detail::operator=="),
        ("method", "fmt::detail::file::~file"),
        ("function", "fmt::detail::operator<<"),
        ("method", "fmt::detail::basic_buffer::grow"),
        ("class", "fmt::detail::formatter"),
        ("method", "fmt::detail::formatter::format"),
        ("class", "fmt::detail::ullong"),
        ("class", "fmt::detail::value"),
    }


def test_a_cpp_method_defined_outside_its_class_is_chunked_under_its_class_with_its_doc():
    path = "include/simdjson/padded_string-inl.h"
    text = (
        "namespace simdjson {\n"
        "/** Loads a file into a padded string. */\n"
        "inline simdjson_result<padded_string> padded_string::load(std::string_view path) noexcept { return read(path); }\n"
        "}\n"
    )
    chunks = analyze_repository({path: text}).files[path].chunks

    loaded = [chunk for chunk in chunks if "load" in chunk.title]
    assert [(chunk.title, chunk.start_line) for chunk in loaded] == [("simdjson.padded_string.load", 2)]
    assert "Loads a file into a padded string." in loaded[0].content


def test_programs_a_build_file_declares_are_named_by_it_and_handled_by_their_main():
    main = "int main(int argc, char **argv) { return 0; }\n"
    analysis = analyze_repository({
        "Makefile.am": (
            "bin_PROGRAMS = jq\njq_SOURCES = src/main.c \\\n  src/util.c\n"
            "check_PROGRAMS = tests/jqtest\ntests_jqtest_SOURCES = tests/jqtest.c\n"
        ),
        "src/main.c": main,
        "src/util.c": "int util(void) { return 1; }\n",
        "tools/CMakeLists.txt": (
            "# Tools built beside the library.\n"
            "add_executable(json2json WIN32\n  json2json.cpp)\n"
            "add_executable(${PROJECT_NAME}-bench bench.cpp)\n"
            "add_executable(simdjson::tool ALIAS json2json)\n"
        ),
        "tools/json2json.cpp": main,
        "tools/bench.cpp": main,
        "tests/CMakeLists.txt": "add_executable(basictests basictests.cpp)\n",
        "tests/basictests.cpp": main,
        "tests/jqtest.c": main,
    })

    declared = {
        (entry.path, entry.route_or_command, entry.framework, entry.handler, entry.start_line)
        for entry in analysis.entrypoints() if entry.framework in ("cmake_executable", "automake_program")
    }
    assert declared == {
        ("Makefile.am", "jq", "automake_program", "src.main.main", 2),
        ("tools/CMakeLists.txt", "json2json", "cmake_executable", "tools.json2json.main", 2),
    }


def test_cpp_calls_the_functions_and_types_of_c_files_and_c_the_extern_functions_of_cpp_ones():
    analysis = analyze_repository({
        "src/jv.h": "typedef struct { int kind; } jv;\njv jv_parse(const char *text);\nint jv_is_valid(jv value);\n",
        "src/jv.c": "#include \"jv.h\"\njv jv_parse(const char *text) { jv v; return v; }\nint jv_is_valid(jv value) { return value.kind; }\n",
        "src/bridge.cpp": "#include <string>\nextern \"C\" int cpp_count(const char *text) { return std::string(text).size(); }\n",
        "src/main.c": "int cpp_count(const char *text);\nint main(void) { return cpp_count(\"x\"); }\n",
        "tests/fuzz.cpp": (
            "#include <string>\n#include \"../src/jv.h\"\n"
            "int check(const std::string &s) { jv v = jv_parse(s.c_str()); return jv_is_valid(v); }\n"
        ),
    })
    edges = {(path, edge.raw): edge.dst for path, file in analysis.files.items() for edge in file.edges if edge.kind == "calls"}

    assert edges[("tests/fuzz.cpp", "jv_parse")] == "src.jv.jv_parse"
    assert edges[("tests/fuzz.cpp", "jv_is_valid")] == "src.jv.jv_is_valid"
    assert edges[("src/main.c", "cpp_count")] == "src.bridge.cpp_count"


def test_crow_and_cpp_httplib_routes():
    found = entrypoint_rows(
        {
            "src/main.cpp": (
                "#include \"crow.h\"\n\nint main() {\n    crow::SimpleApp app;\n"
                "    CROW_ROUTE(app, \"/\")([](){ return \"Hello world\"; });\n"
                "    CROW_ROUTE(app, \"/add/<int>/<int>\").methods(crow::HTTPMethod::Post)([](int a, int b){ return a + b; });\n"
                "    app.port(18080).run();\n}\n"
            ),
            "server/server.cc": (
                "#include <httplib.h>\n\nvoid hi(const httplib::Request &, httplib::Response &res) {}\n\nint main() {\n"
                "  httplib::Server svr;\n  svr.Get(\"/hi\", hi);\n  svr.Post(\"/items\", [](const httplib::Request &req, httplib::Response &res) {});\n"
                "  svr.listen(\"0.0.0.0\", 8080);\n}\n"
            ),
            # The same calls without httplib are none.
            "src/cache.cpp": "void fill(Cache &cache) { cache.Get(\"/x\", key); }\n",
        },
        "framework", "route_or_command", "methods", "handler", kind="http_route",
    )

    assert found == {
        ("crow", "/", (), None),
        ("crow", "/add/<int>/<int>", ("POST",), None),
        ("httplib", "/hi", ("GET",), "server.server.hi"),
        ("httplib", "/items", ("POST",), None),
    }


def test_declarations_after_c_and_cpp_macro_lines_the_grammar_cannot_read_are_symbols():
    files = {
        "src/mainwindow.h": (
            "#pragma once\n#include <QMainWindow>\n\nQT_BEGIN_NAMESPACE\nclass QAction;\nQT_END_NAMESPACE\n\n"
            "class MainWindow : public QMainWindow\n{\n    Q_OBJECT\npublic:\n"
            "    QString title() const { return m_title; }\n    void setTitle(const QString &title) { m_title = title; }\n\n"
            "signals:\n    void titleChanged();\n\nprivate:\n    QString m_title;\n};\n"
        ),
        "src/user.h": (
            "#pragma once\n#include <drogon/HttpController.h>\n\nclass User : public drogon::HttpController<User>\n{\n"
            "  public:\n    METHOD_LIST_BEGIN\n    METHOD_ADD(User::getInfo, \"/{id}\", Get);\n    METHOD_LIST_END\n"
            "    void getInfo(int id) const { }\n};\n"
        ),
        # A namespace a macro opens (fmt's FMT_BEGIN_NAMESPACE, nlohmann's NLOHMANN_JSON_NAMESPACE_BEGIN).
        "include/fmt/args.h": "FMT_BEGIN_NAMESPACE\nclass dynamic_format_arg_store {\n public:\n  void clear() { }\n};\nFMT_END_NAMESPACE\n",
        # C's too (GLib's G_BEGIN_DECLS).
        "src/cart.c": "#include <glib.h>\n\nG_BEGIN_DECLS\n\ntypedef struct _Cart Cart;\n\nint cart_total(Cart *cart)\n{\n  return 0;\n}\n\nG_END_DECLS\n",
        # Such a line inside a function is no declaration, and the grammar still reads the function around it.
        "src/lock.cpp": "void guarded()\n{\n    LOCK_GUARD\n    work();\n}\n",
    }
    analysis = analyze_repository(files)
    found = {symbol.qname: (symbol.kind, symbol.start_line) for file in analysis.files.values() for symbol in file.symbols}

    assert found["src.mainwindow.MainWindow.title"] == ("method", 12)
    assert found["src.mainwindow.MainWindow.setTitle"] == ("method", 13)
    assert found["src.user.User.getInfo"] == ("method", 10)
    assert found["include.fmt.args.dynamic_format_arg_store.clear"] == ("method", 4)
    assert found["src.lock.guarded"] == ("function", 1)
    assert found["src.cart.Cart"] == ("class", 5) and found["src.cart.cart_total"] == ("function", 7)
    # The chunks keep the macros as written.
    chunk = next(c for c in analysis.files["src/mainwindow.h"].chunks if c.start_line <= 10 <= c.end_line)
    assert "Q_OBJECT" in chunk.content


def test_cpp_classes_with_export_macros_or_attributes_and_methods_returning_references_are_symbols():
    files = {
        "include/fmt/format.h": (
            "#include <stdexcept>\n\nclass FMT_API format_error : public std::runtime_error {\n public:\n"
            "  const char* context() const { return ctx_; }\n  const std::string& message() const { return msg_; }\n\n"
            " private:\n  const char* ctx_;\n  std::string msg_;\n};\n"
        ),
        # An attribute before the name: the header is C++ all the same.
        "include/result.h": "class [[nodiscard]] Result {\n public:\n  bool ok() const { return true; }\n};\n",
        # A class named in capitals is not taken for a macro before `final`.
        "src/codes.hpp": "class HTTP_CODES final {\n public:\n  int ok() const { return 200; }\n};\n",
    }
    analysis = analyze_repository(files)
    found = {symbol.qname: (symbol.kind, symbol.start_line) for file in analysis.files.values() for symbol in file.symbols}

    assert found["include.fmt.format.format_error"] == ("class", 3)
    assert found["include.fmt.format.format_error.context"] == ("method", 5)
    assert found["include.fmt.format.format_error.message"] == ("method", 6)
    assert found["include.result.Result.ok"] == ("method", 3)
    assert found["src.codes.HTTP_CODES.ok"] == ("method", 3)
