"""Languages other than Python, read with tree-sitter: one folder per language, one walker for all.

Each folder holds a ``language.toml`` (file suffixes, the grammar package and
its language function, where its tags query comes from, test-file patterns)
and, for grammars that ship no tags query, a ``tags.scm`` of its own (a folder's ``*.own.scm`` queries are read by
its language only, not by the languages that extend it). The
queries capture definitions (``@definition.class``, ``@definition.function``,
``@definition.method`` ...) and references (``@reference.call`` ...) with a
``@name``, the convention of the grammars' own ``queries/tags.scm``. Three
captures of our own name things the way the language does: ``@receiver``
beside a definition's ``@name`` puts it under that type (a Go method), beside a
reference's it is what the name is called on (the path of Rust's ``WalkBuilder::new()``),
``@container`` with a ``@name`` is a scope that is no symbol of its own (a
Rust ``impl`` block, whose functions are methods; ``@container.namespace``, a C++
namespace, whose functions stay functions), and ``@package`` is the file's namespace (Java,
Kotlin, C#, PHP), in the ``@namespace`` declaration that is no symbol;
``@global`` beside a definition names it at the file's top level whatever
encloses it (a C or C++ preprocessor macro knows no namespace). The
walker turns the captures into the records the Python analysis produces:
symbols with their parents, docs and signatures, blocks for chunking, and the
file's facts (its calls and type references) that the repository pass
resolves into edges. A tags pattern's ``(#set! strip "regex")`` removes what matches from
its names (``:name`` of Ruby's ``attr_reader :name`` is the method ``name``). Adding a language is a
folder.

The package's modules, each importing only those above it:

- ``spec``: each folder's ``language.toml`` and queries read once (``LanguageSpec``, ``specs``, ``spec_for``),
  test-file conventions, units (a file's module or package) and names in each language's form;
- ``parsing``: bounded parses (a file too big, too deep or too slow to parse is read as lines) and the
  preprocessor's macros blanked before a parse;
- ``nodes``: what the walker and the entrypoint finder read off syntax trees (definitions by span, doc
  comments, signatures, literals);
- ``routes``: C3 entrypoints from ``entrypoints.scm`` (its docstring lists the captures) and the file routes
  of ``language.toml``;
- ``walker``: ``extract_tree_sitter``, the walker: symbols, blocks, facts and entrypoints of one file.
"""
