"""Opaque bearer tokens: shown once, stored as SHA-256."""

from __future__ import annotations

import hashlib
import secrets


def new_token(prefix: str) -> str:
    return f"rk_{prefix}_{secrets.token_urlsafe(32)}"


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()
