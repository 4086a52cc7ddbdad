"""The key that seals webhook signing secrets at rest (service/game/webhooks/signing.py), resolved once at start.

Sealed is the default everywhere, so a copy of the records database signs nothing:
- RULEKEEPER_WEBHOOKS_SECRETS_KEY, when set, is the key (a deployment reads it from its Secret);
- the embedded SQLite default keeps a generated key in a file beside its database (`<database>.webhooks-key`,
  owner read/write only), created on first start, so a copy of the database file alone opens nothing;
- an in-memory SQLite database gets a key for the life of the process (its secrets die with it);
- PostgreSQL without the setting does not start: replicas share one database, a key each of them generated
  would open only its own secrets, and a key kept in the database would be in every copy of it.

Secrets stored in plain text by an earlier release (`plain:`) are sealed under the key at start (`seal_plain`).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import secrets
import stat
from pathlib import Path

from sqlalchemy import or_, select
from sqlalchemy.engine import make_url

from service.game.webhooks.signing import Sealer
from service.settings import Settings, Secret

log = logging.getLogger("rulekeeper.webhooks")

KEY_FILE_SUFFIX = ".webhooks-key"


class SealingKeyMissing(RuntimeError):
    pass


def key_file(database_url: str) -> Path | None:
    """Where the embedded default keeps its key; None for a database that is not a SQLite file."""
    url = make_url(database_url)
    if (
        url.get_backend_name() != "sqlite"
        or not url.database
        or url.database == ":memory:"
        or url.database.startswith("file:")
    ):
        return None
    db = Path(url.database)
    return db.with_name(db.name + KEY_FILE_SUFFIX)


def resolve(settings: Settings) -> Settings:
    """`settings` with the key webhook secrets are sealed under; raises SealingKeyMissing on PostgreSQL without one."""
    if settings.webhooks_secrets_key:
        return settings
    backend = make_url(settings.database_url).get_backend_name()
    if backend != "sqlite":
        raise SealingKeyMissing(
            "RULEKEEPER_WEBHOOKS_SECRETS_KEY is not set: with a shared database every replica needs the same key "
            "to seal and open webhook signing secrets. Generate one (e.g. `openssl rand -hex 32`), keep it in the "
            "deployment's Secret (deploy/secret.example.yaml) and start again"
        )
    path = key_file(settings.database_url)
    key = _read_or_create(path) if path is not None else secrets.token_hex(32)
    return dataclasses.replace(settings, webhooks_secrets_key=Secret(key))


def _read_or_create(path: Path) -> str:
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning("%s could be read by others (mode %o): set to owner read/write only", path, mode)
            path.chmod(0o600)
        key = path.read_text().strip()
        if not key:
            raise SealingKeyMissing(
                f"{path} is empty: restore the key, or remove the file to start with a new one "
                "(webhook secrets sealed under the old key must then be rotated)"
            ) from None
        return key
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w") as fh:
        fh.write(key + "\n")
    log.info(
        "generated the key that seals webhook signing secrets: %s (keep it with the database's backups, "
        "apart from them)",
        path,
    )
    return key


async def seal_plain(sessions, settings: Settings) -> int:
    """Seal, under the deployment's key, every secret an earlier release stored in plain text; returns how many
    webhooks it sealed. A database that cannot be read yet (not migrated, away) is left for the next start: the
    service starts anyway and says so in /readyz, and plain secrets still sign meanwhile."""
    try:
        return await _seal_plain(sessions, settings)
    except Exception as exc:
        log.warning(
            "webhook secrets stored in plain text were not sealed now (%s); the next start seals them",
            type(exc).__name__,
        )
        return 0


async def _seal_plain(sessions, settings: Settings) -> int:
    from service.store.records.models import Webhook

    sealer = Sealer(settings.webhooks_secrets_key)
    sealed = 0
    async with sessions() as s, s.begin():
        query = select(Webhook).where(
            or_(Webhook.secret.startswith("plain:"), Webhook.previous_secret.startswith("plain:"))
        )
        for w in await s.scalars(query.with_for_update()):  # replicas starting together seal each once
            w.secret = _sealed(sealer, w.id, w.secret)
            if w.previous_secret:
                w.previous_secret = _sealed(sealer, w.id, w.previous_secret)
            sealed += 1
    if sealed:
        log.info("sealed the signing secrets of %d webhooks stored in plain text", sealed)
    return sealed


def _sealed(sealer: Sealer, webhook_id: str, stored: str) -> str:
    return sealer.seal(webhook_id, stored.removeprefix("plain:")) if stored.startswith("plain:") else stored
