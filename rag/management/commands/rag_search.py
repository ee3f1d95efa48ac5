"""python manage.py rag_search REPO "query" [--mode auto|code|docs] [--layers ...] [--path GLOB] [--limit N] [--json]
[--text | --regex]"""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from database_pool.first_run import prepare_database
from rag.models import Repository
from rag.services import SearchError, TextSearchError, search, search_text


def find_repository(reference: str, username: str | None = None) -> Repository:
    """A repository by id or by name (with ``username`` when names collide across owners)."""
    queryset = Repository.objects.select_related("active_run", "owner")
    if reference.isdigit():
        queryset = queryset.filter(pk=int(reference))
    else:
        queryset = queryset.filter(name=reference)
    if username:
        queryset = queryset.filter(owner__username=username)
    matches = list(queryset[:2])
    if not matches:
        raise CommandError(f"no repository {reference!r}")
    if len(matches) > 1:
        raise CommandError(f"several repositories are named {reference!r}; use its id or --user")
    return matches[0]


class Command(BaseCommand):
    help = "Search a repository's active index and print the ranked items."

    def add_arguments(self, parser) -> None:
        parser.add_argument("repository", help="repository id or name")
        parser.add_argument("query")
        parser.add_argument("--mode", choices=["auto", "code", "docs"], default="auto")
        parser.add_argument("--layers", default="", help="comma-separated layers")
        parser.add_argument("--path", default=None, help="path glob filter, e.g. 'src/**/*.py'")
        parser.add_argument("--limit", type=int, default=8)
        parser.add_argument("--user", default=None, help="owner's username when names collide")
        parser.add_argument("--json", action="store_true", dest="as_json", help="print JSON")
        exact = parser.add_mutually_exclusive_group()
        exact.add_argument("--text", action="store_true", help="the lines that hold the query as written (smart case)")
        exact.add_argument("--regex", action="store_true", help="the lines that match the query as a regular expression")

    def handle(self, *args, repository: str, query: str, mode: str, layers: str, path: str | None, limit: int,
               user: str | None, as_json: bool, text: bool, regex: bool, **options) -> None:
        prepare_database(self.stdout)
        repo = find_repository(repository, user)
        if text or regex:
            self._lines(repo, query, regex=regex, path=path, limit=limit, as_json=as_json)
            return
        layer_list = [layer.strip() for layer in layers.split(",") if layer.strip()] or None
        try:
            response = search(repo, query, mode=mode, layers=layer_list, path_glob=path, limit=limit)
        except SearchError as exc:
            raise CommandError(str(exc)) from exc
        if as_json:
            self.stdout.write(json.dumps([item.as_dict() for item in response.items], indent=2))
            return
        for note in response.notes:
            self.stdout.write(f"note: {note}")
        for rank, item in enumerate(response.items, start=1):
            self.stdout.write(f"{rank:>2}. {item.score:.4f} {item.layer:<20} {item.citation}  {item.title}")


    def _lines(self, repo: Repository, query: str, *, regex: bool, path: str | None, limit: int, as_json: bool) -> None:
        try:
            found = search_text(repo, query, regex=regex, path_glob=path, limit=limit)
        except TextSearchError as exc:
            raise CommandError(str(exc)) from exc
        if as_json:
            lines = [{"path": m.path, "line": m.line, "text": m.text} for m in found.matches]
            self.stdout.write(json.dumps({"matches": lines, "truncated": found.truncated}, indent=2))
            return
        for match in found.matches:
            self.stdout.write(f"{match.citation}: {match.text}")
        if found.truncated:
            self.stdout.write(f"note: more lines match; the first {len(found.matches)} are shown (--limit)")
