"""Single-file components: Vue's ``.vue`` and Svelte's ``.svelte`` files, read by their ``<script>`` blocks.

A component holds its markup, its styles and its code in one file; the code
is JavaScript, or TypeScript with ``lang="ts"``. The blocks are read with that
language's grammar in a copy of the file where everything else is blanked
(every character but line breaks made a space), so symbols, imports, calls
and chunks keep the file's own lines and offsets; the markup between them is
chunked as any code between definitions is.
"""

from __future__ import annotations

import re

COMPONENT_SUFFIXES = (".vue", ".svelte")
_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script\s*>", re.DOTALL | re.IGNORECASE)
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
    blocks = list(_SCRIPT.finditer(text))
    languages = {_LANGUAGES.get(lang.group(1).lower(), "javascript") for block in blocks if (lang := _LANG.search(block.group(1)))}
    # One language for the file (a component's blocks share theirs); TypeScript reads JavaScript too.
    language = "tsx" if "tsx" in languages else "typescript" if "typescript" in languages else "javascript"
    kept: list[str] = []
    end = 0
    for block in blocks:
        start, stop = block.span(2)
        kept.append(_NOT_A_LINE_BREAK.sub(" ", text[end:start]))
        kept.append(text[start:stop])
        end = stop
    kept.append(_NOT_A_LINE_BREAK.sub(" ", text[end:]))
    return language, "".join(kept)
