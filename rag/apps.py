from django.apps import AppConfig


class RagConfig(AppConfig):
    name = "rag"
    verbose_name = "Repositories"

    def ready(self) -> None:
        from rag import signals  # noqa: F401  (connects the receivers)
