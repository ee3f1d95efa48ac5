from __future__ import annotations

from django import forms
from django.conf import settings


class UploadForm(forms.Form):
    archive = forms.FileField(
        label="Repository zip",
        help_text="A .zip of the repository (a GitHub \"Download ZIP\" works as is).",
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,application/zip"}),
    )
    name = forms.CharField(
        max_length=200, required=False,
        help_text="Optional; the zip's file name is used otherwise. An existing name is reindexed.",
    )

    @property
    def max_bytes(self) -> int:
        """The largest zip accepted; the page refuses a larger one before sending it."""
        return settings.RAG["MAX_UPLOAD_BYTES"]


class SearchForm(forms.Form):
    q = forms.CharField(max_length=20_000)
    mode = forms.ChoiceField(choices=[("auto", "auto"), ("code", "code"), ("docs", "docs")], required=False)
    layers = forms.CharField(required=False, help_text="Comma-separated layer names.")
    path = forms.CharField(required=False, max_length=500)
    limit = forms.IntegerField(required=False, min_value=1, max_value=200)
