"""python manage.py index_repo PATH_OR_ZIP --name NAME [--user USERNAME] [--background]"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from agentsite.first_run import ensure_first_admin, prepare_database
from rag.intake import IntakeError
from rag.models import IndexRun
from rag.services import run_index
from rag.services.repositories import start_index_run_from_path


def resolve_owner(username: str | None, stdout):
    """The named user; without a name the only superuser, created (``admin``) on a database with none."""
    users = get_user_model().objects
    if username:
        try:
            return users.get(username=username)
        except users.model.DoesNotExist:
            raise CommandError(f"no user named {username!r}") from None
    if users.filter(is_superuser=True).count() > 1:
        raise CommandError("several administrators exist: say which one owns the repository with --user USERNAME")
    return ensure_first_admin(stdout)


class Command(BaseCommand):
    help = "Index a directory or a zip as a repository (a new version if the name exists)."

    def add_arguments(self, parser) -> None:
        parser.add_argument("path", help="a directory or a .zip file")
        parser.add_argument("--name", default="", help="repository name (default: the directory or zip name)")
        parser.add_argument("--user", default=None, help="owner's username (default: the only superuser)")
        parser.add_argument("--background", action="store_true", help="queue for the worker instead of indexing here")

    def handle(self, *args, path: str, name: str, user: str | None, background: bool, **options) -> None:
        prepare_database(self.stdout)
        owner = resolve_owner(user, self.stdout)
        try:
            run = start_index_run_from_path(path, owner=owner, name=name, defer=background)
        except IntakeError as exc:
            raise CommandError(exc.message) from exc
        if background:
            self.stdout.write(f"queued run #{run.pk} of {run.repository.name}")
            return
        run = run_index(run.pk)
        if run.status == IndexRun.Status.FAILED:
            raise CommandError(f"run #{run.pk} failed: {run.error}")
        layers = ", ".join(f"{layer} {count}" for layer, count in run.layer_counts)
        self.stdout.write(
            f"run #{run.pk} of {run.repository.name} is {run.status}: {run.counts.get('files', 0)} files; {layers}; "
            f"skipped {run.skipped.get('total', 0)}; {run.timings.get('total', 0):.1f} s"
        )
        if run.embedding_error:
            self.stdout.write(run.embedding_error)
