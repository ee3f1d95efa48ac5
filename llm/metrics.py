"""Prometheus metrics of the LLM layer, served at ``/metrics``.

They live in their own registry rather than the process-global default one,
so ``/metrics`` exports exactly the product's figures and tests can read them
without collisions. Counters are per process: with several server processes,
scrape each one (or run one process per scrape target).
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

REGISTRY = CollectorRegistry(auto_describe=True)

# Buckets from a fast local model (tens of ms) to a slow remote one (a minute).
_LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0, 120.0)

TURN_TIME_TO_FIRST_CHUNK = Histogram(
    "llm_turn_time_to_first_chunk_seconds",
    "From the user's message to the first chunk of the answer.",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
TURN_LATENCY = Histogram(
    "llm_turn_latency_seconds",
    "From the user's message to the end of the answer.",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
TURNS = Counter(
    "llm_turns_total",
    "Conversation turns by how they ended.",
    ["outcome"],
    registry=REGISTRY,
)
CONTEXT_WARMUPS = Counter(
    "llm_context_warmups_total",
    "Standby contexts built in the background (a summary of the older turns plus the recent ones).",
    registry=REGISTRY,
)
CONTEXT_WARMUP_FAILURES = Counter(
    "llm_context_warmup_failures_total",
    "Standby contexts that could not be built (the summarization call failed).",
    registry=REGISTRY,
)
CONTEXT_HANDOVERS = Counter(
    "llm_context_handovers_total",
    "Standby contexts swapped in as the active one.",
    registry=REGISTRY,
)
CONTEXT_HANDOVER_WAIT = Histogram(
    "llm_context_handover_wait_seconds",
    "Time a request waited at the handover threshold for its standby context to be ready.",
    buckets=_LATENCY_BUCKETS,
    registry=REGISTRY,
)
CONTEXT_TRIMMED_MESSAGES = Counter(
    "llm_context_trimmed_messages_total",
    "Messages left out of a request by the hard guard to keep it inside the model's window.",
    registry=REGISTRY,
)
SUMMARY_CACHE_HITS = Counter(
    "llm_summary_cache_hits_total",
    "Summaries found already made (Django cache or database).",
    ["source"],
    registry=REGISTRY,
)
SUMMARY_CACHE_MISSES = Counter(
    "llm_summary_cache_misses_total",
    "Summaries that had to be made by the summarization model.",
    registry=REGISTRY,
)
SUMMARY_CACHE_ERRORS = Counter(
    "llm_summary_cache_errors_total",
    "Django cache operations that failed; the summary store went on without the cache.",
    registry=REGISTRY,
)


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus text format, and their content type."""
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
