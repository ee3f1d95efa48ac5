"""Re-run the parsing of a recorded LLM call, or re-send its request to a provider."""

from __future__ import annotations

import asyncio

from django.core.management.base import BaseCommand, CommandError

from llm import replay
from llm.registry import PROVIDERS


class Command(BaseCommand):
    help = (
        "Replay a recorded LLM call (an LLMCall id or an LLM_AUDIT_DIR file): re-parse its recorded "
        "stream without calling the provider, or with --provider re-send its request to a provider."
    )

    def add_arguments(self, parser):
        parser.add_argument("reference", help="an LLMCall id, or the path of a JSON audit file")
        parser.add_argument("--provider", choices=sorted(PROVIDERS), help="re-send the recorded request to this provider")

    def handle(self, *args, reference: str, provider: str | None, **options):
        try:
            record = replay.load_record(reference)
            header = (
                f"call {record.get('id', reference)}: {record.get('provider')} {record.get('model')}, "
                f"prompt {record.get('prompt_name') or '-'} v{record.get('prompt_version')}, {record.get('outcome')}"
            )
            self.stdout.write(header)
            if provider:
                self.stdout.write(f"re-sending the recorded request to {provider}")
                events = asyncio.run(replay.resend(record, provider))
                self.stdout.write(replay.describe(events))
            else:
                self.stdout.write(f"re-parsing {len(record.get('response') or [])} recorded payloads")
                events = replay.replay_parsing(record)
                self.stdout.write(replay.describe(events, record))
        except replay.ReplayError as exc:
            raise CommandError(str(exc)) from exc
