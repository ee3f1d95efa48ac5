"""What an index holds, in the words the repository pages use."""

from __future__ import annotations

from django import template

from rag.browse import index_sentence as _index_sentence
from rag.models import IndexRun

register = template.Library()


@register.filter
def index_sentence(run: IndexRun | None) -> str:
    """``Indexed 231 files, 3,331 symbols``."""
    return _index_sentence(run) if run else ""
