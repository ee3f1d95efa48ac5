from __future__ import annotations

from django.urls import include, path

from chat import views

urlpatterns = [
    path("", views.session_list, name="chat-sessions"),
    path("new/", views.session_create, name="chat-create"),
    path("<int:pk>/", views.session_detail, name="chat-session"),
    path("<int:pk>/rename/", views.session_rename, name="chat-rename"),
    path("<int:pk>/delete/", views.session_delete, name="chat-delete"),
    path("<int:pk>/messages/<int:message_id>/replace/", views.message_replace, name="chat-message-replace"),
    path("", include("chat.artifact_urls")),
]
