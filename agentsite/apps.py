from __future__ import annotations

from django.apps import AppConfig
from django.core import checks


class AgentsiteConfig(AppConfig):
    name = "agentsite"
    verbose_name = "Site"

    def ready(self) -> None:
        from agentsite.database import check_pgvector_available

        checks.register(check_pgvector_available, checks.Tags.database)
