"""Answers to safe HTML: the shared Markdown pipeline (``rag.markdown``) with the agent's citations linked."""

from __future__ import annotations

from chat.agent.citing import CITATION_RE
from rag.markdown import CitationLinker, sanitize
from rag.markdown import render_markdown as render_with_citations

__all__ = ["CITATION", "CitationLinker", "render_markdown", "render_typed_text", "sanitize"]

# ``path:start-end`` or ``path:line`` in an answer's text: the agent's own citation pattern.
CITATION = CITATION_RE


def render_markdown(text: str, link_citation: CitationLinker | None = None) -> str:
    """Markdown from a model (untrusted) to HTML that is safe to mark safe.

    With ``link_citation``, code citations in the text link to what it returns.
    """
    return render_with_citations(text, link_citation, CITATION if link_citation else None)


def render_typed_text(text: str) -> str:
    """A person's own message: Markdown with its newlines kept, so fenced code is highlighted as in answers."""
    return render_with_citations(text, breaks=True)
