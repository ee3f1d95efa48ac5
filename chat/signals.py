"""Open chat sockets closed when their user signs out or is deactivated; a deleted repository's
chats lose the records of their model calls (which quote its code)."""

from __future__ import annotations

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.contrib.auth import get_user_model
from django.contrib.auth.signals import user_logged_out
from django.db.models.signals import post_save, pre_delete
from django.dispatch import receiver

from rag.models import Repository


def user_group(user_id: int) -> str:
    """The channel group of every chat socket a user has open, in any server process."""
    return f"chat.user.{user_id}"


def close_sockets_of(user_id: int) -> None:
    layer = get_channel_layer()
    if layer is not None:
        async_to_sync(layer.group_send)(user_group(user_id), {"type": "chat.signed_out"})


@receiver(user_logged_out)
def close_sockets_on_logout(sender, request, user, **kwargs) -> None:
    if user is not None:
        close_sockets_of(user.pk)


@receiver(post_save, sender=get_user_model())
def close_sockets_of_deactivated_users(sender, instance, created, **kwargs) -> None:
    if not created and not instance.is_active:
        close_sockets_of(instance.pk)


@receiver(pre_delete, sender=Repository)
def forget_model_calls_of_repository_chats(sender, instance, **kwargs) -> None:
    from chat.services import forget_repository_calls

    forget_repository_calls(instance.pk)
