"""Repositories and their index versions.

An ``IndexRun`` is one index version. Versions of a repository share rows:
every row (file, item, symbol, edge, entrypoint) lives in a *store* (the run
whose full build created it) and carries the range of versions it belongs to,
``since_run <= version < until_run``. A new version writes only the rows of
what changed, marks the rows it replaces as ending at itself, and becomes
visible only when ``Repository.active_run`` switches to it; the version before
it reads the same rows unchanged. Items live in a LIST-partitioned table, one
partition per store (see ``rag/storage.py``); the other tables are ordinary.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from pgvector.django import VectorField

LAYERS = ("C0_SOURCE_CHUNKS", "C1_SYMBOL_CATALOG", "C2_DEPENDENCY_GRAPH", "C3_ENTRYPOINTS", "D0_DOCS")
CODE_LAYERS = LAYERS[:4]
# The stages of an index run, in order (``IndexRun.timings`` keys, plus "total").
STAGE_ORDER = ("extract", "analyze", "embed", "load", "index")
DOC_LAYERS = LAYERS[4:]


class Repository(models.Model):
    owner = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="repositories")
    name = models.CharField(max_length=200)
    active_run = models.ForeignKey(
        "IndexRun", null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text="The index version queries are answered from.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name_plural = "repositories"
        ordering = ["name"]
        constraints = [models.UniqueConstraint(fields=["owner", "name"], name="rag_repository_unique_name_per_owner")]

    def __str__(self) -> str:
        return self.name


class IndexRun(models.Model):
    class Status(models.TextChoices):
        QUEUED = "queued"
        RUNNING = "running"
        READY = "ready"
        FAILED = "failed"
        SUPERSEDED = "superseded"

    class Trigger(models.TextChoices):
        UPLOAD = "upload"
        REINDEX = "reindex"
        COMMAND = "command"
        ADMIN = "admin"
        SYNC = "sync"
        WEBHOOK = "webhook"
        SCHEDULE = "schedule"

    repository = models.ForeignKey(Repository, on_delete=models.CASCADE, related_name="runs")
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.QUEUED, db_index=True)
    trigger = models.CharField(max_length=16, choices=Trigger.choices, default=Trigger.UPLOAD)
    progress = models.FloatField(default=0.0, help_text="0..1")
    stage = models.CharField(max_length=200, blank=True)
    # {"C0_SOURCE_CHUNKS": 120, ..., "files": 40, "files_reused": 38, "embeddings_reused": 300, ...}
    counts = models.JSONField(default=dict, blank=True)
    # {"reasons": {"binary": 2, ...}, "files": [{"path": ..., "reason": ...}, ...]} (list capped)
    skipped = models.JSONField(default=dict, blank=True)
    # seconds per stage, in stage order
    timings = models.JSONField(default=dict, blank=True)
    embedder = models.CharField(max_length=200, blank=True)
    embedding_dimension = models.PositiveIntegerField(null=True, blank=True)
    # Lexemes in so many items that they cannot tell items apart; left out of OR full-text queries.
    common_words = models.JSONField(default=list, blank=True)
    # Why the run has no vectors (it still answers with lexical retrieval).
    embedding_error = models.TextField(blank=True)
    error = models.TextField(blank=True)
    archive_path = models.CharField(max_length=500)
    archive_sha256 = models.CharField(max_length=64)
    archive_size = models.BigIntegerField(default=0)
    archive_name = models.CharField(max_length=255, blank=True)
    # A version built from a git commit (rag/sources/git.py) instead of an archive.
    commit_sha = models.CharField(max_length=40, blank=True, db_index=True)
    commit_message = models.TextField(blank=True)
    job_id = models.BigIntegerField(null=True, blank=True)
    # The items partition exists and is attached; cleared when its rows are dropped.
    has_items = models.BooleanField(default=False)
    # The run whose store (items partition and rows) holds this version's rows: itself for a full
    # build, the version it was built on for one that wrote only its changes (``rag.storage``).
    store = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    # How the run's item rows were derived (rag.services.index_items.ITEM_FORMAT); a later run
    # copies a file's chunk rows from this one only when it derives them the same way.
    item_format = models.CharField(max_length=32, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.repository} #{self.pk} ({self.status})"

    @property
    def files(self) -> models.QuerySet:
        return SourceFile.objects.in_version(self)

    @property
    def symbols(self) -> models.QuerySet:
        return Symbol.objects.in_version(self)

    @property
    def edges(self) -> models.QuerySet:
        return Edge.objects.in_version(self)

    @property
    def entrypoints(self) -> models.QuerySet:
        return Entrypoint.objects.in_version(self)

    @property
    def short_sha(self) -> str:
        return self.commit_sha[:12]

    @property
    def commit_subject(self) -> str:
        return self.commit_message.split("\n", 1)[0]

    @property
    def is_finished(self) -> bool:
        return self.status in {self.Status.READY, self.Status.FAILED, self.Status.SUPERSEDED}

    @property
    def layer_counts(self) -> list[tuple[str, int]]:
        return [(layer, int(self.counts.get(layer, 0))) for layer in LAYERS]

    @property
    def stage_timings(self) -> list[tuple[str, float]]:
        """(stage, seconds) in run order; jsonb does not keep the order keys were written in."""
        order = {stage: i for i, stage in enumerate((*STAGE_ORDER, "total"))}
        return sorted(((k, float(v)) for k, v in self.timings.items()), key=lambda kv: order.get(kv[0], len(order)))

    @property
    def progress_percent(self) -> int:
        return round(self.progress * 100)


class GitRemote(models.Model):
    """The git remote and branch a repository follows (rag/sources/git.py, rag/services/git_sync.py).

    Credentials and the webhook secret are stored encrypted (rag/sources/credentials.py);
    ``url`` never holds a credential.
    """

    class Credential(models.TextChoices):
        NONE = "none"
        TOKEN = "token", "https token"
        SSH_KEY = "ssh_key", "ssh deploy key"

    repository = models.OneToOneField(Repository, on_delete=models.CASCADE, related_name="git_remote")
    url = models.CharField(max_length=1000)
    # A path on the server (connected by staff only).
    is_local = models.BooleanField(default=False)
    branch = models.CharField(max_length=255, blank=True, help_text="Empty: the remote's default branch.")
    credential_kind = models.CharField(max_length=16, choices=Credential.choices, default=Credential.NONE)
    credential_encrypted = models.TextField(blank=True)
    webhook_secret_encrypted = models.TextField(blank=True)
    sync_minutes = models.PositiveIntegerField(default=0, help_text="Fetch the branch this often; 0: only by webhook or by hand.")
    last_checked_at = models.DateTimeField(null=True, blank=True)
    last_head = models.CharField(max_length=40, blank=True)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"{self.url} ({self.branch or 'default branch'})"


# ``until_run`` of a row that still belongs to the newest version of its store.
OPEN_END = 2**63 - 1


def in_version_q(run: IndexRun | None) -> models.Q:
    """The condition on a versioned row to belong to one index version (nothing for a version without rows)."""
    if run is None or run.store_id is None:
        return models.Q(pk__in=[])
    return models.Q(store_id=run.store_id, since_run__lte=run.pk, until_run__gt=run.pk)


class VersionQuerySet(models.QuerySet):
    def in_version(self, run: IndexRun | None) -> models.QuerySet:
        """The rows of one index version."""
        return self.filter(in_version_q(run))


class VersionedRow(models.Model):
    """A row shared by the versions ``since_run <= version < until_run`` of its store."""

    store = models.ForeignKey(IndexRun, on_delete=models.CASCADE, related_name="+")
    since_run = models.BigIntegerField(default=0)
    until_run = models.BigIntegerField(default=OPEN_END)

    objects = VersionQuerySet.as_manager()

    class Meta:
        abstract = True


class SourceFile(VersionedRow):
    path = models.CharField(max_length=1000)
    content_hash = models.CharField(max_length=64)
    language = models.CharField(max_length=40)
    size = models.PositiveIntegerField()
    line_count = models.PositiveIntegerField()
    # Bytes that were not valid UTF-8 and were replaced.
    replaced_bytes = models.BooleanField(default=False)
    text = models.TextField()
    # The file's analysis (rag.analysis.serialization), fed back to the next
    # run so an unchanged file skips the per-file pass.
    analysis = models.JSONField(null=True, blank=True)
    # A digest of every row derived from the file after the repository pass
    # (rag.services.index_items.file_digest): the next version rewrites the file's
    # rows only when it changes.
    rows_digest = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["path"]
        constraints = [
            models.UniqueConstraint(fields=["store", "path", "since_run"], name="rag_sourcefile_unique_path")
        ]

    def __str__(self) -> str:
        return self.path


class Item(models.Model):
    """One retrievable item of any layer (read side; rows are written with COPY).

    The table is partitioned by ``store_id`` and created in SQL by the migrations;
    ``search`` is a tsvector over ``title_terms`` (weight A) and ``body_terms``
    (weight B), which hold identifier-split text, computed by the database as a
    row is loaded (``rag.storage.SEARCH_EXPRESSION``). ``row_hash`` identifies
    a row's stored values, so two versions' rows can be compared. Like every
    versioned row, it belongs to the versions ``since_run <= version < until_run``
    of its store.
    """

    id = models.BigIntegerField(primary_key=True)
    store = models.ForeignKey(IndexRun, on_delete=models.DO_NOTHING, related_name="+", db_constraint=False)
    since_run = models.BigIntegerField()
    until_run = models.BigIntegerField()
    layer = models.CharField(max_length=32)
    path = models.TextField()
    start_line = models.IntegerField()
    end_line = models.IntegerField()
    title = models.TextField()
    content = models.TextField()
    metadata = models.JSONField()
    qname = models.TextField()
    name = models.TextField()
    is_test = models.BooleanField()
    is_doc = models.BooleanField()
    file_hash = models.CharField(max_length=64)
    embed_hash = models.CharField(max_length=32)
    embedding = VectorField(null=True)
    title_terms = models.TextField()
    body_terms = models.TextField()
    row_hash = models.CharField(max_length=32)

    objects = VersionQuerySet.as_manager()

    class Meta:
        managed = False
        db_table = "rag_item"


class Symbol(VersionedRow):
    qname = models.TextField()
    name = models.TextField()
    kind = models.CharField(max_length=16)
    path = models.TextField()
    module = models.TextField()
    start_line = models.IntegerField()
    end_line = models.IntegerField()
    signature = models.TextField(blank=True)
    docstring = models.TextField(blank=True)
    decorators = models.JSONField(default=list)
    parent = models.TextField(null=True, blank=True)
    is_async = models.BooleanField(default=False)
    is_entry_candidate = models.BooleanField(default=False)

    class Meta:
        indexes = [
            models.Index(fields=["store", "qname"], name="rag_symbol_run_qname"),
            models.Index(fields=["store", "name"], name="rag_symbol_run_name"),
        ]


class Edge(VersionedRow):
    kind = models.CharField(max_length=16)
    src = models.TextField()
    dst = models.TextField(null=True, blank=True)
    raw = models.TextField()
    resolution = models.CharField(max_length=16)
    path = models.TextField()
    line = models.IntegerField()

    class Meta:
        indexes = [
            models.Index(fields=["store", "src"], name="rag_edge_run_src"),
            models.Index(fields=["store", "dst"], name="rag_edge_run_dst"),
        ]


class Entrypoint(VersionedRow):
    entry_type = models.CharField(max_length=32)
    framework = models.CharField(max_length=64)
    route_or_command = models.TextField()
    methods = models.JSONField(default=list)
    handler = models.TextField(null=True, blank=True)
    # The handler as written (``views.login_view``, ``block at app.rb:12`` for a block written in place),
    # kept when it does not resolve to a symbol too.
    handler_raw = models.TextField(blank=True, db_default="")
    path = models.TextField()
    start_line = models.IntegerField()
    end_line = models.IntegerField()

    class Meta:
        indexes = [models.Index(fields=["store", "entry_type"], name="rag_entrypoint_run_type")]
