"""Admin for repositories and index runs: status, progress, counts, errors, reindex."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import Count
from django.utils.html import format_html_join

from rag.intake import IntakeError
from rag.models import GitRemote, IndexRun, Repository
from rag.services.git_sync import queue_sync
from rag.services.repositories import cancel_index_run, delete_repository, reindex

RUN_AUDIT_FIELDS = (
    "repository", "status", "trigger", "progress", "stage", "counts", "skipped", "timings", "embedder",
    "embedding_dimension", "embedding_error", "error", "archive_name", "archive_path", "archive_sha256",
    "archive_size", "commit_sha", "commit_message", "job_id", "has_items", "created_by", "created_at", "started_at", "finished_at",
)


@admin.action(description="Reindex from the latest stored archive", permissions=["change"])
def reindex_repositories(modeladmin, request, queryset):
    queued = 0
    for repository in queryset:
        try:
            reindex(repository, created_by=request.user)
            queued += 1
        except IntakeError as exc:
            modeladmin.message_user(request, f"{repository}: {exc.message}", messages.ERROR)
    if queued:
        modeladmin.message_user(request, f"Queued a reindex of {queued} repositories.", messages.SUCCESS)


@admin.action(description="Sync from the git remote (fetch the branch, index a new head)", permissions=["change"])
def sync_repositories(modeladmin, request, queryset):
    following = queryset.filter(git_remote__isnull=False)
    queued = sum(queue_sync(repository, trigger=IndexRun.Trigger.ADMIN) is not None for repository in following)
    modeladmin.message_user(
        request, f"Queued a sync of {queued} repositories ({following.count() - queued} already had one waiting; "
        f"{queryset.count() - following.count()} follow no git remote).", messages.SUCCESS,
    )


class GitRemoteInline(admin.StackedInline):
    """The remote a repository follows; the credential and the webhook secret are never shown."""

    model = GitRemote
    extra = 0
    can_delete = False
    fields = ("url", "is_local", "branch", "credential_kind", "sync_minutes", "last_checked_at", "last_head", "last_error")
    readonly_fields = ("url", "is_local", "credential_kind", "last_checked_at", "last_head", "last_error")

    def has_add_permission(self, request, obj=None) -> bool:
        return False


class IndexRunInline(admin.TabularInline):
    model = IndexRun
    extra = 0
    can_delete = False
    show_change_link = True
    fields = ("status", "trigger", "commit_sha", "progress", "stage", "embedder", "error", "created_at", "finished_at")
    readonly_fields = fields
    ordering = ("-id",)

    def has_add_permission(self, request, obj=None) -> bool:
        return False


@admin.register(Repository)
class RepositoryAdmin(admin.ModelAdmin):
    list_display = ("name", "owner", "active_run", "run_count", "updated_at")
    list_select_related = ("owner", "active_run")
    search_fields = ("name", "owner__username")
    list_filter = ("active_run__status",)
    readonly_fields = ("active_run", "created_at", "updated_at")
    actions = [reindex_repositories, sync_repositories]
    inlines = [GitRemoteInline, IndexRunInline]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(run_total=Count("runs"))

    @admin.display(description="runs", ordering="run_total")
    def run_count(self, obj) -> int:
        return obj.run_total

    def delete_model(self, request, obj) -> None:
        delete_repository(obj)

    def delete_queryset(self, request, queryset) -> None:
        for repository in queryset:
            delete_repository(repository)


@admin.register(IndexRun)
class IndexRunAdmin(admin.ModelAdmin):
    list_display = ("id", "repository", "status", "progress_display", "stage", "embedder", "created_at", "finished_at")
    list_select_related = ("repository", "repository__owner")
    list_filter = ("status", "trigger", "embedder")
    search_fields = ("repository__name", "error", "archive_sha256", "commit_sha")
    readonly_fields = RUN_AUDIT_FIELDS + ("layer_table",)
    fields = readonly_fields
    actions = ["reindex_runs", "cancel_runs"]

    def has_add_permission(self, request) -> bool:
        return False

    @admin.display(description="progress", ordering="progress")
    def progress_display(self, obj) -> str:
        return f"{obj.progress_percent}%"

    @admin.display(description="items per layer")
    def layer_table(self, obj):
        return format_html_join("", "<div>{}: {}</div>", obj.layer_counts)

    @admin.action(description="Cancel these runs (queued or running)", permissions=["change"])
    def cancel_runs(self, request, queryset):
        cancelled = sum(cancel_index_run(run, by=request.user) for run in queryset)
        skipped = queryset.count() - cancelled
        self.message_user(request, f"Cancelled {cancelled} runs." + (f" {skipped} had already finished." if skipped else ""),
                          messages.SUCCESS if cancelled else messages.WARNING)

    @admin.action(description="Reindex these runs' repositories", permissions=["change"])
    def reindex_runs(self, request, queryset):
        repositories = Repository.objects.filter(pk__in=queryset.values("repository_id"))
        reindex_repositories(self, request, repositories)
