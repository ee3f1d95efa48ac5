from django.urls import path

from chat import views

urlpatterns = [
    path("", views.session_list, name="chat-sessions"),
]
