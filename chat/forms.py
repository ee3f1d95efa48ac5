"""Forms of the chat pages."""

from __future__ import annotations

from django import forms

from chat import services
from chat.models import TITLE_MAX_LENGTH, ChatSession
from rag.models import Repository


class NewSessionForm(forms.Form):
    title = forms.CharField(
        max_length=TITLE_MAX_LENGTH, required=False, help_text="Optional; the first question is used otherwise."
    )
    repository = forms.ModelChoiceField(
        queryset=Repository.objects.none(), required=False, empty_label="No repository (general chat)"
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        # Only the user's own repositories can be chosen.
        self.fields["repository"].queryset = Repository.objects.filter(owner=user).order_by("name")
        self.fields["repository"].initial = services.default_repository(user)


class RenameSessionForm(forms.ModelForm):
    class Meta:
        model = ChatSession
        fields = ["title"]
