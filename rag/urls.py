from django.urls import path

from rag import browse, remote_views, views

urlpatterns = [
    path("", views.repository_list, name="rag-repositories"),
    path("upload/", views.upload, name="rag-upload"),
    path("connect/", remote_views.git_connect, name="rag-git-connect"),
    path("<int:pk>/", views.repository_detail, name="rag-repository"),
    path("<int:pk>/reindex/", views.repository_reindex, name="rag-reindex"),
    path("<int:pk>/sync/", remote_views.repository_sync, name="rag-sync"),
    path("<int:pk>/git/", remote_views.git_remote_settings, name="rag-git-settings"),
    path("<int:pk>/webhook/", remote_views.webhook, name="rag-webhook"),
    path("<int:pk>/webhook/secret/", remote_views.webhook_secret_renew, name="rag-webhook-secret"),
    path("<int:pk>/delete/", views.repository_delete, name="rag-delete"),
    path("<int:pk>/runs/<int:run_id>/cancel/", views.run_cancel, name="rag-cancel-run"),
    path("<int:pk>/search/", views.search_api, name="rag-search"),
    path("<int:pk>/source/<path:path>", views.source, name="rag-source"),
    path("<int:pk>/raw/<path:path>", browse.source_raw, name="rag-source-raw"),
    path("<int:pk>/code-search/", browse.code_search, name="rag-code-search"),
    path("<int:pk>/symbols/<path:qname>", browse.symbol, name="rag-symbol"),
    path("<int:pk>/dependencies/", browse.dependencies, name="rag-dependencies"),
    path("<int:pk>/entrypoints/", browse.entrypoints, name="rag-entrypoints"),
]
