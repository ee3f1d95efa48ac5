from django.urls import path

from rag import views

urlpatterns = [
    path("", views.repository_list, name="rag-repositories"),
]
