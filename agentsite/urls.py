from __future__ import annotations

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required
from django.templatetags.static import static
from django.urls import include, path
from django.views.generic import RedirectView

from agentsite import views
from llm import views as llm_views

# The app list beside every admin page took a quarter of a 1280 px screen from the lists' columns;
# the breadcrumbs and the index page lead to the other models.
admin.site.enable_nav_sidebar = False

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # Pages link the SVG icon; this answers browsers and tools that ask for /favicon.ico anyway (admin pages).
    path("favicon.ico", login_not_required(RedirectView.as_view(url=static("favicon.svg"), permanent=True))),
    path("metrics", llm_views.metrics_view, name="metrics"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    path("chats/", include("chat.urls")),
    path("repositories/", include("rag.urls")),
    path("settings/", include("chat.mcp.urls")),
]
