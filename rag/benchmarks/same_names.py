"""Many files that define and call the same names, and how the analysis's time grows with them.

``python -m rag.benchmarks.same_names [--files N] [--shapes js_local,rust_mod,...]`` analyses each shape
at N and at 4N files (``analyze_repository``, one call each) and prints both times and their ratio: about
4 where the repository pass's name resolution grows with the files, 16 where it reads every definition of
a name at each call of it. Each shape is one file repeated with its number in the names that must
differ: a class reopened in every file (Ruby), the same class in a namespace of each file (Ruby, C#,
TypeScript, C++), a function local to another in every file (JavaScript), the same method of one struct
in every file of a crate (Rust), extension functions (Kotlin), a package spread over thousands of files
(Go, Java).
"""

from __future__ import annotations

import argparse
import time

from rag.analysis.repository import analyze_repository

# name: (path, text), each formatted with the file's number ``i``.
SHAPES: dict[str, tuple[str, str]] = {
    "rb_reopened": ("lib/a{i}.rb", "class A\n  def run{i}\n    A.new.run{i}\n    helper\n  end\n  def helper\n  end\nend\n"),
    "rb_namespaced": (
        "lib/a{i}.rb",
        "module M{i}\n  class A\n    def run{i}\n      A.new.run{i}\n      helper\n    end\n    def helper\n    end\n  end\nend\n",
    ),
    "js_local": (
        "src/f{i}.js",
        "function outer{i}() {{ function helper() {{ return 1; }} return helper(); }}\n"
        "export function run{i}() {{ return outer{i}() + helper(); }}\n",
    ),
    "ts_namespaced": (
        "src/f{i}.ts",
        "export namespace N{i} {{ export class A {{ run() {{ return new A().run(); }} }} }}\nfunction helper() {{ return A; }}\n",
    ),
    "kt_extensions": (
        "src/main/kotlin/p{i}/A.kt",
        "package p{i}\nclass A {{ fun run() {{ helper(); A().run() }} }}\nfun helper() {{}}\nfun A.ext() {{ run() }}\n",
    ),
    "cs_namespaced": (
        "src/A{i}.cs",
        "namespace N{i} {{ public class A {{ public void Run() {{ Helper(); new A().Run(); }} void Helper() {{}} }} "
        "public static class X {{ public static void Ext(this A a) {{ a.Run(); }} }} }}\n",
    ),
    "cpp_namespaced": (
        "src/a{i}.cpp",
        "namespace n{i} {{ class A {{ public: void run() {{ helper(); A().run(); }} void helper() {{}} }}; void helper() {{}} }}\n",
    ),
    "rust_crate": (
        "src/m{i}.rs",
        "pub struct A;\nimpl A {{ pub fn run(&self) {{ self.helper(); A.run(); helper(); }} fn helper(&self) {{}} }}\nfn helper() {{}}\n",
    ),
    "go_package": (
        "p/a{i}.go",
        "package p\ntype A{i} struct{{}}\nfunc (a A{i}) Run() {{ a.Helper(); helper() }}\nfunc (a A{i}) Helper() {{}}\n"
        "func helper{i}() {{ helper() }}\n",
    ),
    "java_package": (
        "src/main/java/p/A{i}.java",
        "package p;\npublic class A{i} {{ void run() {{ helper(); new B().go(); }} static void helper() {{}} }}\nclass B {{ void go() {{}} }}\n",
    ),
    "php_namespaced": (
        "src/A{i}.php",
        "<?php\nnamespace N{i};\nclass A {{ public function run() {{ $this->helper(); (new A())->run(); helper(); }} "
        "private function helper() {{}} }}\nfunction helper() {{}}\n",
    ),
    "py_packages": ("p{i}/a.py", "class A:\n    def run(self):\n        helper()\n        A().run()\ndef helper():\n    pass\n"),
}


def seconds(shape: str, files: int) -> float:
    path, text = SHAPES[shape]
    tree = {path.format(i=i): text.format(i=i) for i in range(files)}
    started = time.perf_counter()
    analyze_repository(tree)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1500, help="files of the smaller run (default 1,500)")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="shapes, comma-separated")
    options = parser.parse_args()
    print(f"{'shape':<16} {options.files:>7,} files {4 * options.files:>7,} files   ratio")
    for shape in options.shapes.split(","):
        few, many = seconds(shape, options.files), seconds(shape, 4 * options.files)
        print(f"{shape:<16} {few:11.2f} s {many:11.2f} s {many / few:7.1f}", flush=True)


if __name__ == "__main__":
    main()
