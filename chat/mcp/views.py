"""The "Editor access" page: personal access tokens (make, list, revoke) and each editor's configuration."""

from __future__ import annotations

import json

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from chat.mcp import tokens
from rag.services import repositories_for_user

EXPIRY_CHOICES = [("30", "30 days"), ("90", "90 days"), ("365", "1 year"), ("", "Never")]
TOKEN_PLACEHOLDER = "<your token>"


class TokenForm(forms.Form):
    name = forms.CharField(max_length=100, help_text="What it is for, e.g. “Cursor on my laptop”.")
    expires_in_days = forms.ChoiceField(choices=EXPIRY_CHOICES, initial="90", required=False, label="Expires")
    repositories = forms.ModelMultipleChoiceField(
        queryset=None, required=False, widget=forms.CheckboxSelectMultiple,
        help_text="None ticked: every repository you can see, now and later.",
    )

    def __init__(self, user, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["repositories"].queryset = repositories_for_user(user).order_by("name")


def editor_snippets(server_url: str, secret: str) -> list[dict[str, str]]:
    """The configuration of each editor, with this server's URL and the token (or a placeholder)."""
    bearer = f"Bearer {secret}"
    cursor = {"mcpServers": {"codebase": {"url": server_url, "headers": {"Authorization": bearer}}}}
    vscode = {
        "inputs": [{"type": "promptString", "id": "codebase-token", "description": "Codebase assistant token", "password": True}],
        "servers": {
            "codebase": {"type": "http", "url": server_url, "headers": {"Authorization": "Bearer ${input:codebase-token}"}}
        },
    }
    continue_yaml = (
        "name: Codebase assistant\nversion: 0.0.1\nschema: v1\nmcpServers:\n  - name: codebase\n"
        f"    type: streamable-http\n    url: {server_url}\n    requestOptions:\n      headers:\n"
        f"        Authorization: {bearer}\n"
    )
    return [
        {"editor": "Claude Code", "where": "a terminal",
         "text": f'claude mcp add --transport http codebase {server_url} --header "Authorization: {bearer}"'},
        {"editor": "Cursor", "where": "~/.cursor/mcp.json (or .cursor/mcp.json in a project)", "text": json.dumps(cursor, indent=2)},
        {"editor": "VS Code", "where": ".vscode/mcp.json (asks for the token once and keeps it in the secret store)",
         "text": json.dumps(vscode, indent=2)},
        {"editor": "Continue", "where": ".continue/mcpServers/codebase.yaml", "text": continue_yaml},
    ]


@require_http_methods(["GET", "POST"])
def tokens_page(request: HttpRequest) -> HttpResponse:
    secret = ""
    form = TokenForm(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        days = form.cleaned_data["expires_in_days"]
        try:
            _, secret = tokens.create_token(
                request.user,
                form.cleaned_data["name"],
                expires_in_days=int(days) if days else None,
                repositories=form.cleaned_data["repositories"],
            )
        except tokens.TokenError as exc:
            form.add_error(None, str(exc))
        else:
            form = TokenForm(request.user)
    server_url = request.build_absolute_uri("/mcp")
    return render(
        request,
        "chat/mcp/tokens.html",
        {
            "form": form,
            "secret": secret,
            "tokens": tokens.tokens_of(request.user),
            "server_url": server_url,
            "snippets": editor_snippets(server_url, secret or TOKEN_PLACEHOLDER),
        },
        status=400 if request.method == "POST" and not secret else 200,
    )


@require_POST
def revoke_token(request: HttpRequest, pk: int) -> HttpResponse:
    if tokens.revoke(request.user, pk):
        messages.success(request, "Token revoked: editors using it can no longer connect.")
    else:
        messages.error(request, "No such active token.")
    return redirect("mcp-tokens")
