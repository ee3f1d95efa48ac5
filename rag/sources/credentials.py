"""Secrets of git remotes (tokens, deploy keys, webhook secrets), encrypted at rest.

Fernet (AES-128-CBC with HMAC-SHA256) with the key in ``RAG["CREDENTIALS_KEY"]``;
without one, a key is derived from ``SECRET_KEY``, so rotating either makes
the stored secrets unreadable (connect the remote again). Plain text never
reaches a log, a form's initial value or a page.
"""

from __future__ import annotations

import base64
import hashlib

from cryptography.fernet import Fernet, InvalidToken
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from rag.intake import IntakeError


class CredentialUnreadable(IntakeError):
    """A stored secret that the configured key cannot decrypt (the key changed)."""

    code = "credential_unreadable"


def _fernet() -> Fernet:
    configured = settings.RAG.get("CREDENTIALS_KEY") or ""
    if configured:
        try:
            return Fernet(configured.encode())
        except ValueError as exc:
            raise ImproperlyConfigured("RAG_CREDENTIALS_KEY must be a Fernet key (urlsafe base64 of 32 bytes)") from exc
    derived = hashlib.sha256(f"rag.credentials\x00{settings.SECRET_KEY}".encode()).digest()
    return Fernet(base64.urlsafe_b64encode(derived))


def encrypt_secret(plain: str) -> str:
    """The stored form of a secret; an empty secret stays empty."""
    return _fernet().encrypt(plain.encode()).decode() if plain else ""


def decrypt_secret(stored: str) -> str:
    if not stored:
        return ""
    try:
        return _fernet().decrypt(stored.encode()).decode()
    except InvalidToken:
        raise CredentialUnreadable(
            "The stored credential cannot be decrypted with the configured key; connect the repository again."
        ) from None
