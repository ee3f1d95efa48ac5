"""``manage.py chat_load``: N concurrent websocket chats against one server process."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from chat.benchmarks.load import format_report, run_load


class Command(BaseCommand):
    help = "Run N concurrent chats against a fresh daphne process and a scripted model; print throughput, drops and TTFT."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--chats", type=int, default=200)
        parser.add_argument("--tokens", type=int, default=300, help="tokens per answer")
        parser.add_argument("--rate", type=float, default=20.0, help="tokens per second the model streams per chat")
        parser.add_argument("--first-token-ms", type=float, default=200.0, help="the model's own time to first token")
        parser.add_argument(
            "--ramp", type=float, default=5.0, help="seconds over which the questions are spread (0: all at once)"
        )
        parser.add_argument(
            "--conn-max-age",
            type=int,
            default=settings.WEB_CONN_MAX_AGE,
            help="seconds the server keeps database connections (default: as `serve` runs it; 0: a connection per call)",
        )
        parser.add_argument(
            "--no-pin", action="store_true", help="let the server share all CPUs with the clients and the model"
        )
        parser.add_argument(
            "--no-repository", action="store_true",
            help="chats without a repository: questions routed by keywords, one model call fewer (default: the model routes)",
        )

    def handle(self, *args, chats: int, tokens: int, rate: float, first_token_ms: float, ramp: float, conn_max_age: int, no_pin: bool, no_repository: bool, **options) -> None:
        if chats < 1 or tokens < 1 or rate <= 0:
            raise CommandError("--chats and --tokens must be at least 1 and --rate above 0")
        report = run_load(
            chats=chats,
            tokens=tokens,
            rate=rate,
            first_token_delay=first_token_ms / 1000,
            ramp=ramp,
            conn_max_age=conn_max_age,
            pin=not no_pin,
            repository=not no_repository,
        )
        self.stdout.write(format_report(report))
        if report.dropped or report.out_of_order or report.failed_chats:
            raise CommandError("frames were dropped or chats failed")
