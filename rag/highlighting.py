"""Pygments' lexing within a time budget, for the source view and Markdown's code blocks.

Some lexers' patterns read the rest of the text again from every place they start (Rust's raw strings:
600 KB of ``r#"`` took 273 s; Perl's substitutions: 16 KB of ``s{`` took 2.3 s), so text whose lexing
runs past the budget is shown plain; the longest real file of a source view's window highlights in a
few tenths of a second.
"""

from __future__ import annotations

import time

from pygments.lexer import Lexer

HIGHLIGHT_SECONDS = 2.0


def deadline() -> float:
    """When highlighting that starts now must stop."""
    return time.monotonic() + HIGHLIGHT_SECONDS


def lexed(lexer: Lexer, text: str, until: float) -> list | None:
    """``text``'s tokens, or None when lexing it runs past ``until`` (a ``time.monotonic()`` value)."""
    tokens = []
    for number, token in enumerate(lexer.get_tokens(text)):
        if number % 32 == 0 and time.monotonic() > until:
            return None
        tokens.append(token)
    return tokens
