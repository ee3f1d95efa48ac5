from __future__ import annotations

from django.urls import path

from chat.mcp import views

urlpatterns = [
    path("tokens/", views.tokens_page, name="mcp-tokens"),
    path("tokens/<int:pk>/revoke/", views.revoke_token, name="mcp-token-revoke"),
]
