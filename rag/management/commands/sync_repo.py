"""python manage.py sync_repo NAME [--user USERNAME] [--background]: fetch a git repository's branch and index a new head."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from database_pool.first_run import prepare_database
from rag.management.commands.index_repo import report_sync
from rag.models import IndexRun, Repository
from rag.services.git_sync import queue_sync, sync_repository


class Command(BaseCommand):
    help = "Fetch the branch a repository follows and index its head if it is new."

    def add_arguments(self, parser) -> None:
        parser.add_argument("name", help="the repository's name")
        parser.add_argument("--user", default=None, help="owner's username (needed when several users have a repository of that name)")
        parser.add_argument("--background", action="store_true", help="queue the sync for the worker instead of running it here")

    def handle(self, *args, name: str, user: str | None, background: bool, **options) -> None:
        prepare_database(self.stdout)
        repositories = Repository.objects.filter(name=name, git_remote__isnull=False)
        if user:
            repositories = repositories.filter(owner__username=user)
        found = list(repositories[:2])
        if not found:
            raise CommandError(f"no repository named {name!r} follows a git remote")
        if len(found) > 1:
            raise CommandError(f"several users have a repository named {name!r}: say whose with --user USERNAME")
        repository = found[0]
        if background:
            job = queue_sync(repository, trigger=IndexRun.Trigger.COMMAND)
            self.stdout.write("sync queued" if job is not None else "a sync is already queued")
            return
        report_sync(self.stdout, sync_repository(repository, trigger=IndexRun.Trigger.COMMAND))
