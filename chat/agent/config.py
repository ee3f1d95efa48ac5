"""The agent's knobs, read once per turn from ``settings.CHAT``."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings


@dataclass(frozen=True)
class AgentConfig:
    # Model -> tools -> model rounds before the model must answer with what it has.
    max_tool_rounds: int = 6
    # Context caps for retrieval results; raised when the model's window leaves room.
    retrieved_items: int = 12
    file_candidates: int = 10
    # Share of the model's window past which older tool exchanges of the turn are summarized.
    summarize_at: float = 0.8
    # Longest tool result handed to the model, in characters.
    tool_result_chars: int = 12_000
    # Share of the model's window the recent dialog may take.
    history_share: float = 0.3
    # Answering calls ask for {internal_thought, is_safe, answer} JSON (llm/conversation/structured.py).
    structured_answers: bool = False

    @classmethod
    def from_settings(cls) -> AgentConfig:
        chat = settings.CHAT
        defaults = cls()
        return cls(
            max_tool_rounds=int(chat.get("AGENT_MAX_TOOL_ROUNDS", defaults.max_tool_rounds)),
            retrieved_items=int(chat.get("AGENT_RETRIEVED_ITEMS", defaults.retrieved_items)),
            file_candidates=int(chat.get("AGENT_FILE_CANDIDATES", defaults.file_candidates)),
            summarize_at=float(chat.get("AGENT_SUMMARIZE_AT", defaults.summarize_at)),
            tool_result_chars=int(chat.get("AGENT_TOOL_RESULT_CHARS", defaults.tool_result_chars)),
            history_share=float(chat.get("AGENT_HISTORY_SHARE", defaults.history_share)),
            structured_answers=bool(chat.get("STRUCTURED_ANSWERS", defaults.structured_answers)),
        )
