"""``python manage.py create_token USER --name N [--days D] [--repository R ...]``: print a new personal access token."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from chat.mcp import tokens
from rag.services import repositories_for_user


class Command(BaseCommand):
    help = "Make a personal access token for USER (for MCP clients) and print it; it cannot be shown again."

    def add_arguments(self, parser) -> None:
        parser.add_argument("user", help="The username the token acts as.")
        parser.add_argument("--name", required=True, help="What the token is for.")
        parser.add_argument("--days", type=int, default=None, help="Expires after so many days (default: never).")
        parser.add_argument(
            "--repository", action="append", default=[], metavar="NAME",
            help="Limit the token to this repository of the user's (repeat for several; default: all of them).",
        )

    def handle(self, *args, user: str, name: str, days: int | None, repository: list[str], **options) -> None:
        account = get_user_model().objects.filter(username=user).first()
        if account is None:
            raise CommandError(f"no user named {user!r}")
        visible = repositories_for_user(account)
        chosen = list(visible.filter(name__in=repository))
        missing = sorted(set(repository) - {r.name for r in chosen})
        if missing:
            raise CommandError(f"{user} has no repository named {', '.join(missing)}")
        try:
            _, secret = tokens.create_token(account, name, expires_in_days=days, repositories=chosen)
        except tokens.TokenError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(secret)
