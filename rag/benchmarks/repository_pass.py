"""Uploads built to make the repository pass slow: the same names in thousands of files, and chains of
routers and commands mounted in one another.

``python -m rag.benchmarks.repository_pass [--files N] [--shapes js_local,rust_crate,...] [--links N]``
first analyses each shape of ``SHAPES`` at N and at 4N files (``analyze_repository``, one call each) and
prints both times and their ratio: about 4 where the repository pass's name resolution grows with the
files, 16 where it reads every definition of a name at each call of it; then the references the larger
run left unresolved when its lookups had read all they may (``LookupWork``), and, where it left some, the
seconds of the same run without that allowance. Each shape is one file repeated
with its number in the names that must differ: a class reopened in every file (Ruby), the same class in
a namespace of each file (Ruby, C#, TypeScript, C++), a function local to another in every file
(JavaScript), the same method of one struct in every file of a crate (Rust), extension functions
(Kotlin), a package spread over thousands of files (Go, Java).

Then each chain of ``CHAINS`` at ``--links`` files (Express routers each mounting the one before, axum's
nested routers, cobra, typer and click command groups), and axum routers nested by every router of the
level above, 14 levels of 3, and a TypeScript barrel passing on ``--links`` modules whole, each importing
another's function through it: the seconds of each analysis, and how it ended.
"""

from __future__ import annotations

import argparse
import time

from rag.analysis.repository import analyze_repository

# Lookups enough for any of the shapes: their analysis as it would be without ``LookupWork``'s allowance.
UNBOUNDED = 10**15

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


# name: (path, text), each formatted with the file's number ``i`` and the number before it, ``j``.
CHAINS: dict[str, tuple[str, str]] = {
    "express": (
        "src/r{i}.js",
        "const express = require('express');\nconst router = express.Router();\n"
        "router.use('/r{i}', require('./r{j}'));\nrouter.get('/x', (req, res) => res.send('x'));\nmodule.exports = router;\n",
    ),
    "axum": (
        "src/r{i}.rs",
        "use axum::{{routing::get, Router}};\n"
        "pub fn router{i}() -> Router {{ Router::new().route(\"/x\", get(h)).nest(\"/r{i}\", crate::r{j}::router{j}()) }}\n"
        "async fn h() {{}}\n",
    ),
    "cobra": (
        "cmd/c{i}.go",
        "package cmd\nimport \"github.com/spf13/cobra\"\nfunc NewCmd{i}() *cobra.Command {{\n"
        "  c := &cobra.Command{{Use: \"c{i}\"}}\n  c.AddCommand(NewCmd{j}())\n  return c\n}}\n",
    ),
    "typer": (
        "cli/c{i}.py",
        "import typer\nfrom cli.c{j} import app as sub\napp = typer.Typer()\napp.add_typer(sub, name='c{i}')\n"
        "@app.command()\ndef run{i}():\n    pass\n",
    ),
    "click": (
        "cli/c{i}.py",
        "import click\nfrom cli.c{j} import g{j}\n@click.group()\ndef g{i}():\n    pass\ng{i}.add_command(g{j})\n",
    ),
}


def _timed(tree: dict[str, str], lookups: int | None = None) -> tuple[float, str, int]:
    """The seconds of the tree's analysis, how it ended, and the references it left unresolved."""
    started = time.perf_counter()
    try:
        analysis = analyze_repository(tree, lookups=lookups)
    except RecursionError as error:
        return time.perf_counter() - started, f"failed: {type(error).__name__}", 0
    found = sum(len(file.entrypoints) for file in analysis.files.values())
    return time.perf_counter() - started, f"{found:,} entrypoints", analysis.unresolved


def seconds(shape: str, files: int, lookups: int | None = None) -> tuple[float, int]:
    """The seconds of the shape's analysis at ``files`` files, and the references it left unresolved."""
    path, text = SHAPES[shape]
    took, _, unresolved = _timed({path.format(i=i): text.format(i=i) for i in range(files)}, lookups)
    return took, unresolved


def nested_routers(levels: int = 14, width: int = 3) -> dict[str, str]:
    """axum routers in ``levels`` levels of ``width``, each nesting every router of the level below."""
    tree = {}
    for level in range(levels):
        for x in range(width):
            nests = "".join(
                f'.nest("/n{level}{y}", crate::r{level + 1}_{y}::router())' for y in range(width)
            ) if level + 1 < levels else ""
            tree[f"src/r{level}_{x}.rs"] = (
                "use axum::{routing::get, Router};\n"
                f'pub fn router() -> Router {{ Router::new().route("/x", get(h)){nests} }}\nasync fn h() {{}}\n'
            )
    return tree


def barrel(modules: int) -> dict[str, str]:
    """A TypeScript ``index.ts`` passing on ``modules`` modules whole (``export * from``), each of which
    imports another's function through it."""
    tree = {"src/index.ts": "".join(f"export * from './m{i}'\n" for i in range(modules))}
    for i in range(modules):
        other = (i * 7) % modules
        tree[f"src/m{i}.ts"] = f"import {{ f{other} }} from './index'\nexport function f{i}() {{\n  return f{other}()\n}}\n"
    return tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=1500, help="files of the smaller run (default 1,500)")
    parser.add_argument("--shapes", default=",".join(SHAPES), help="shapes, comma-separated ('' for none)")
    parser.add_argument("--links", type=int, default=3000, help="files of each chain (default 3,000)")
    options = parser.parse_args()
    many_files = 4 * options.files
    print(
        f"{'shape':<16} {options.files:>7,} files {many_files:>7,} files   ratio  unresolved"
        f"  {many_files:,} files, lookups unbounded"
    )
    for shape in filter(None, options.shapes.split(",")):
        (few, _), (many, unresolved) = seconds(shape, options.files), seconds(shape, many_files)
        unbounded = seconds(shape, many_files, UNBOUNDED)[0] if unresolved else many
        print(f"{shape:<16} {few:11.2f} s {many:11.2f} s {many / few:7.1f} {unresolved:11,} {unbounded:12.2f} s", flush=True)
    print(f"\n{'chain':<16} {'seconds':>8}  ended")
    for chain, (path, text) in CHAINS.items():
        took, ended, _ = _timed({path.format(i=i): text.format(i=i, j=i - 1) for i in range(1, options.links + 1)})
        print(f"{chain:<16} {took:8.2f}  {ended}", flush=True)
    took, ended, _ = _timed(nested_routers())
    print(f"{'axum 3 wide':<16} {took:8.2f}  {ended}")
    took, ended, _ = _timed(barrel(options.links))
    print(f"{'ES barrel':<16} {took:8.2f}  {ended}")


if __name__ == "__main__":
    main()
