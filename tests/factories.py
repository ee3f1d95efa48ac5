"""Small factories for the suite's persona users and objects."""

from __future__ import annotations

from django.contrib.auth import get_user_model

PASSWORD = "correct-horse-battery-staple"


def make_user(username: str, *, staff: bool = False):
    user_model = get_user_model()
    return user_model.objects.create_user(username=username, password=PASSWORD, is_staff=staff)
