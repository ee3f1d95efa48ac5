"""The provider used when no model is configured.

It makes no network calls and never pretends to be a model: every answer it
streams says plainly that no model is configured and how to set one up.
Callers that can answer without a model (extractively, from retrieval) check
``provider.generates_text`` and label their answer the same way.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

from llm import audit
from llm.providers.base import Provider
from llm.types import ChatRequest, StreamEvent, Usage

CONFIGURE_MODEL_TEXT = (
    "Set LLM_PROVIDER and the provider's credentials (GIGACHAT_TOKEN, OPENAI_API_KEY "
    "or OPENAI_BASE_URL, or GEMINI_API_KEY) to get generated answers."
)
NO_MODEL_TEXT = f"No language model is configured, so no answer was generated. {CONFIGURE_MODEL_TEXT}"

MODEL_NAME = "offline"


class OfflineProvider(Provider):
    name = "offline"
    supports_streaming = True
    supports_tools = False
    supports_json_schema = False
    supports_embeddings = False
    # False: answers from this provider are a fixed notice, not model output.
    generates_text = False

    def model_for(self, purpose: str = "main") -> str:
        return MODEL_NAME

    async def _stream(self, request: ChatRequest, model: str, trace: audit.CallTrace) -> AsyncIterator[StreamEvent]:
        yield StreamEvent(type="text", text=NO_MODEL_TEXT)
        yield StreamEvent(type="usage", usage=Usage())
        yield StreamEvent(type="done", text=NO_MODEL_TEXT, finish_reason="no_model", model=MODEL_NAME)
