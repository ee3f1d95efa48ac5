"""Long dialogs: the conversation manager, its contexts, the dual-context handover and structured answers.

- ``manager``: ``ConversationManager`` (one per active chat session): a turn's context prepared and its answer recorded; turn runners, chunks, metrics.
- ``controller``: ``DualContextController``, the warm-up / handover strategy.
- ``context``: ``LLMContext`` and the hard guard ``fit_to_window``.
- ``store``: persisted summaries (``ConversationSummary``) behind the Django cache.
- ``structured``: the JSON answer mode and its incremental parser.

May import ``llm`` (types, tokens, retries, providers, prompts) and Django; nothing of ``rag`` or ``chat``:
the chat answers between ``prepare`` and ``record``.

This package imports nothing at load time: ``llm.models`` imports ``store``
while Django loads its apps.
"""
