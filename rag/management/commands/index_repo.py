"""python manage.py index_repo PATH_OR_ZIP --name NAME [--user USERNAME] [--background]
python manage.py index_repo --git URL [--branch B] --name NAME [--user USERNAME] [--token-file F | --ssh-key-file F]"""

from __future__ import annotations

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from database_pool.first_run import ensure_first_admin, prepare_database
from rag.intake import IntakeError
from rag.models import IndexRun, Repository
from rag.services import run_index
from rag.services.git_sync import SyncResult, connect_git_repository, repository_name_for, sync_repository
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
        parser.add_argument("path", nargs="?", default="", help="a directory or a .zip file")
        parser.add_argument("--git", default="", metavar="URL", help="follow a git remote (https, ssh, git://, or a path on the server)")
        parser.add_argument("--branch", default="", help="with --git: the branch to follow (default: the remote's default branch)")
        parser.add_argument("--token-file", default="", help="with --git: a file holding an https access token (user:token also)")
        parser.add_argument("--ssh-key-file", default="", help="with --git: a file holding an ssh deploy key")
        parser.add_argument("--sync-minutes", type=int, default=None, help="with --git: fetch the branch this often (0: never)")
        parser.add_argument("--name", default="", help="repository name (default: the directory or zip name)")
        parser.add_argument("--user", default=None, help="owner's username (default: the only superuser)")
        parser.add_argument("--background", action="store_true", help="queue for the worker instead of indexing here")

    def handle(self, *args, path: str, name: str, user: str | None, background: bool, git: str, **options) -> None:
        if bool(path) == bool(git):
            raise CommandError("give either a directory or zip, or --git URL")
        prepare_database(self.stdout)
        owner = resolve_owner(user, self.stdout)
        if git:
            self._connect_git(git, owner=owner, name=name, background=background, **options)
            return
        try:
            run = start_index_run_from_path(path, owner=owner, name=name, defer=background)
        except IntakeError as exc:
            raise CommandError(exc.message) from exc
        if background:
            self.stdout.write(f"queued run #{run.pk} of {run.repository.name}")
            return
        report_run(self.stdout, run_index(run.pk))

    def _connect_git(
        self, url: str, *, owner, name: str, background: bool, branch: str, token_file: str, ssh_key_file: str,
        sync_minutes: int | None, **options,
    ) -> None:
        try:
            token = Path(token_file).read_text().strip() if token_file else ""
            ssh_key = Path(ssh_key_file).read_text() if ssh_key_file else ""
        except OSError as exc:
            raise CommandError(f"cannot read the credential file: {exc}") from exc
        try:
            existing = Repository.objects.filter(owner=owner, name=repository_name_for(url, name), git_remote__isnull=False).first()
        except IntakeError as exc:
            raise CommandError(exc.message) from exc
        if existing is not None:
            # Run again for a repository it connected before: a sync of it.
            if existing.git_remote.url not in (url, str(Path(url).resolve())):
                raise CommandError(f"{existing.name} already follows {existing.git_remote.url}; choose another --name")
            report_sync(self.stdout, sync_repository(existing, trigger=IndexRun.Trigger.COMMAND))
            return
        try:
            # The server's own command line may name a path on the server, as staff may.
            repository = connect_git_repository(
                owner=owner, name=name, url=url, branch=branch, token=token, ssh_key=ssh_key, sync_minutes=sync_minutes,
                allow_local=True, created_by=owner, defer=background,
            )
        except IntakeError as exc:
            raise CommandError(exc.message) from exc
        if background:
            self.stdout.write(f"connected {repository.name}; its first sync is queued")
            return
        report_sync(self.stdout, sync_repository(repository, trigger=IndexRun.Trigger.COMMAND))



def report_run(stdout, run: IndexRun) -> None:
    """Print a finished run's summary; a failed run is the command's error."""
    if run.status == IndexRun.Status.FAILED:
        raise CommandError(f"run #{run.pk} failed: {run.error}")
    commit = f" at {run.short_sha} ({run.commit_subject})" if run.commit_sha else ""
    layers = ", ".join(f"{layer} {count}" for layer, count in run.layer_counts)
    stdout.write(
        f"run #{run.pk} of {run.repository.name}{commit} is {run.status}: {run.counts.get('files', 0)} files; {layers}; "
        f"skipped {run.skipped.get('total', 0)}; {run.timings.get('total', 0):.1f} s"
    )
    if run.embedding_error:
        stdout.write(run.embedding_error)


def report_sync(stdout, result: SyncResult) -> None:
    """Print what a sync did; a failed fetch or run is the command's error."""
    if result.run is not None:
        report_run(stdout, result.run)
    elif result.error:
        raise CommandError(result.error)
    else:
        stdout.write(f"up to date at {result.head[:12]}")
