"""Downloads and lists of the files attached to answers (``chat/artifacts.py``)."""

from __future__ import annotations

from django.urls import path

from chat import artifacts

urlpatterns = [
    path("<int:pk>/artifacts/", artifacts.artifact_list, name="chat-artifacts"),
    path("artifacts/<int:message_pk>/<int:index>/", artifacts.artifact_download, name="chat-artifact-download"),
]
