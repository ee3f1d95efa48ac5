"""Keep the items partitions in step with index runs deleted by any path (cascades included)."""

from __future__ import annotations

from django.db.models.signals import post_delete
from django.dispatch import receiver

from rag import storage
from rag.models import IndexRun


@receiver(post_delete, sender=IndexRun, dispatch_uid="rag-drop-run-partition")
def drop_partition_of_deleted_run(sender, instance: IndexRun, **kwargs) -> None:
    storage.drop_partition(instance.pk)
