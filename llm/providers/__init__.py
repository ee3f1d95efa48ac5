"""Provider adapters; find them through ``llm.registry``."""
