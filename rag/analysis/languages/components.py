"""Single-file components: Vue's ``.vue``, Svelte's ``.svelte`` and Astro's ``.astro`` files, read by their
``<script>`` blocks (and an Astro component's frontmatter, the TypeScript between its first two ``---`` lines).

A component holds its markup, its styles and its code in one file; the code
is JavaScript, or TypeScript with ``lang="ts"``. The blocks are read with that
language's grammar in a copy of the file where everything else is blanked
(every character but line breaks made a space), so symbols, imports, calls
and chunks keep the file's own lines and offsets; the markup between them is
chunked as any code between definitions is.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

COMPONENT_SUFFIXES = (".vue", ".svelte", ".astro")
# An Astro component's frontmatter: its code, TypeScript, between a first line of ``---`` and the next.
_FENCE_OPENS = re.compile(r"\A\s*---[ \t]*\n")
_FENCE_CLOSES = re.compile(r"^---[ \t]*$", re.MULTILINE)
_SCRIPT_OPENS = re.compile(r"<script\b", re.IGNORECASE)
_SCRIPT_CLOSES = re.compile(r"</script\s*>", re.IGNORECASE)
_LANG = re.compile(r"""\blang\s*=\s*["']?([\w-]+)""", re.IGNORECASE)
# A block's ``lang`` -> the language it is read as (anything else: JavaScript, whose grammar reads JSX too).
_LANGUAGES = {"ts": "typescript", "typescript": "typescript", "tsx": "tsx"}
_NOT_A_LINE_BREAK = re.compile(r"[^\n]")


def component_script(path: str, text: str) -> tuple[str, str] | None:
    """The language of a component's scripts (``typescript``, ``tsx``, ``javascript``) and the file with only
    their code kept (nothing, for markup alone: still a component, a page its path may route to), or None
    when ``path`` is no component."""
    if not path.lower().endswith(COMPONENT_SUFFIXES):
        return None
    blocks = list(_script_blocks(text))
    if path.lower().endswith(".astro") and (opening := _FENCE_OPENS.match(text)) is not None:
        closing = _FENCE_CLOSES.search(text, opening.end())
        if closing is not None:
            blocks.insert(0, (' lang="ts"', opening.end(), closing.start()))
    languages = {_LANGUAGES.get(lang.group(1).lower(), "javascript") for attributes, _, _ in blocks if (lang := _LANG.search(attributes))}
    # One language for the file (a component's blocks share theirs); TypeScript reads JavaScript too.
    language = "tsx" if "tsx" in languages else "typescript" if "typescript" in languages else "javascript"
    kept: list[str] = []
    end = 0
    for _, start, stop in blocks:
        kept.append(_NOT_A_LINE_BREAK.sub(" ", text[end:start]))
        kept.append(text[start:stop])
        end = stop
    kept.append(_NOT_A_LINE_BREAK.sub(" ", text[end:]))
    return language, "".join(kept)


def _script_blocks(text: str) -> Iterator[tuple[str, int, int]]:
    """Each ``<script ...>...</script>`` block: its attributes and where its code starts and stops.

    One pass forward: a pattern that matched a whole block (``<script\\b([^>]*)>(.*?)</script>``) read
    the rest of the file again from every ``<script`` it tried, and an upload of them took minutes.
    """
    position = 0
    while (opening := _SCRIPT_OPENS.search(text, position)) is not None:
        tag_end = text.find(">", opening.end())
        closing = _SCRIPT_CLOSES.search(text, tag_end + 1) if tag_end >= 0 else None
        if closing is None:
            return
        yield text[opening.end():tag_end], tag_end + 1, closing.start()
        position = closing.end()
