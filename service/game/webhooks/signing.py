"""Standard Webhooks v1 signatures, and webhook secrets at rest.

A secret is `whsec_` + base64 of 32 random bytes; a delivery's `webhook-signature` is `v1,` + base64 of the
HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}` under those bytes, so any Standard Webhooks
library verifies it. Several space-separated signatures are allowed, which is how a rotated secret keeps
working for its grace period.

At rest a secret is sealed with AES-GCM under a key derived from RULEKEEPER_WEBHOOKS_SECRETS_KEY, bound to
its webhook's id, so a copy of the database alone signs nothing. Without that setting it is stored as is
(marked `plain:`), and setting the key later still reads those.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import os
import secrets

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

PREFIX = "whsec_"
SECRET_BYTES = 32


def new_secret() -> str:
    return PREFIX + base64.b64encode(secrets.token_bytes(SECRET_BYTES)).decode()


def _key(secret: str) -> bytes:
    return base64.b64decode(secret.removeprefix(PREFIX))


def signature(secret: str, msg_id: str, timestamp: int, body: str) -> str:
    mac = hmac.new(_key(secret), f"{msg_id}.{timestamp}.{body}".encode(), hashlib.sha256).digest()
    return "v1," + base64.b64encode(mac).decode()


def headers(msg_id: str, timestamp: int, body: str, signing_secrets: list[str]) -> dict[str, str]:
    """The three Standard Webhooks headers; one signature per secret (the current one first)."""
    return {
        "webhook-id": msg_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": " ".join(signature(s, msg_id, timestamp, body) for s in signing_secrets),
    }


class SecretUnavailable(Exception):
    """A stored secret this deployment cannot open (sealed under another key, or no key set)."""


class Sealer:
    """Seals and opens stored secrets under the deployment's key (or marks them plain when there is none)."""

    def __init__(self, key: str | None) -> None:
        self._aead = None
        if key:
            derived = HKDF(algorithm=SHA256(), length=32, salt=None, info=b"rulekeeper webhook secrets v1").derive(
                str(key).encode()
            )
            self._aead = AESGCM(derived)

    def seal(self, webhook_id: str, secret: str) -> str:
        if self._aead is None:
            return "plain:" + secret
        nonce = os.urandom(12)
        sealed = self._aead.encrypt(nonce, secret.encode(), webhook_id.encode())
        return "aesgcm:" + base64.b64encode(nonce + sealed).decode()

    def open(self, webhook_id: str, stored: str) -> str:
        kind, _, text = stored.partition(":")
        if kind == "plain":
            return text
        if kind != "aesgcm" or self._aead is None:
            raise SecretUnavailable("the webhook's secret is sealed and RULEKEEPER_WEBHOOKS_SECRETS_KEY is not set")
        raw = base64.b64decode(text)
        try:
            return self._aead.decrypt(raw[:12], raw[12:], webhook_id.encode()).decode()
        except InvalidTag:
            raise SecretUnavailable(
                "the webhook's secret was sealed under another RULEKEEPER_WEBHOOKS_SECRETS_KEY; rotate it"
            ) from None
