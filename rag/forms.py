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


class GitConnectForm(forms.Form):
    url = forms.CharField(
        label="Git address", max_length=1000,
        help_text="https://host/owner/repo.git, ssh://git@host/owner/repo.git or git@host:owner/repo.git "
        "(staff may give a path on the server).",
    )
    branch = forms.CharField(max_length=200, required=False, help_text="Optional; the remote's default branch otherwise.")
    name = forms.CharField(max_length=200, required=False, help_text="Optional; the repository's name in the address otherwise.")
    # Never rendered back: a refused form asks for the secret again.
    token = forms.CharField(
        required=False, max_length=2000, strip=True, widget=forms.PasswordInput(render_value=False),
        help_text="For a private https remote: an access token (or user:token). Stored encrypted, never shown again.",
    )
    ssh_key = forms.CharField(
        label="Deploy key", required=False, max_length=20000, widget=forms.Textarea(attrs={"rows": 3}),
        help_text="For a private ssh remote: a read-only deploy key (private key). Stored encrypted, never shown again.",
    )
    sync_minutes = forms.IntegerField(
        label="Check for new commits every (minutes)", min_value=0, max_value=7 * 24 * 60, required=False,
        help_text="0: only when a webhook arrives or on Sync now.",
    )


class GitRemoteSettingsForm(forms.Form):
    branch = forms.CharField(max_length=200, required=False)
    sync_minutes = forms.IntegerField(min_value=0, max_value=7 * 24 * 60)
