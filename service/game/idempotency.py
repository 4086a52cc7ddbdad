"""Idempotency-Key: a retried write returns the first response and changes nothing.

The key is claimed in its own transaction before the command runs, so two copies of one request
arriving together cannot both apply: the second sees the claim and gets a 409 until the first ends.
A command that fails releases its claim, so the client may retry it.
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Awaitable, Callable
from typing import Any

from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError

from service.game.context import Services
from service.game.errors import GameError
from service.game.tokens import hash_token
from service.store.records.models import IdempotencyRecord

Reply = tuple[int, Any, dict[str, str]]


async def run_once(svc: Services, token: str | None, key: str, fingerprint: bytes,
                   run: Callable[[], Awaitable[Reply]]) -> Reply:
    if len(key) > 200:
        raise GameError(400, "invalid_idempotency_key", "Idempotency-Key is limited to 200 characters",
                        field="Idempotency-Key")
    owner = hash_token(token)[:36] if token else "anonymous"
    request_hash = hashlib.sha256(fingerprint).hexdigest()
    try:
        async with svc.write() as s:
            rec = await s.get(IdempotencyRecord, (owner, key))
            if rec is not None:
                if rec.request_hash != request_hash:
                    raise GameError(422, "idempotency_key_reused",
                                    "this Idempotency-Key was used for a different request", field="Idempotency-Key")
                if rec.status == 0:
                    raise GameError(409, "request_in_progress", "a request with this Idempotency-Key is still running",
                                    field="Idempotency-Key")
                return rec.status, json.loads(rec.body), {**rec.headers, "Idempotent-Replayed": "true"}
            s.add(IdempotencyRecord(credential_id=owner, key=key, request_hash=request_hash, status=0, body="",
                                    headers={}))
    except IntegrityError:
        raise GameError(409, "request_in_progress", "a request with this Idempotency-Key is still running",
                        field="Idempotency-Key") from None
    try:
        status, body, headers = await run()
    except BaseException:
        async with svc.write() as s:
            await s.execute(delete(IdempotencyRecord).where(IdempotencyRecord.credential_id == owner,
                                                            IdempotencyRecord.key == key))
        raise
    async with svc.write() as s:
        rec = await s.get(IdempotencyRecord, (owner, key))
        rec.status, rec.body, rec.headers = status, json.dumps(body), headers
    return status, body, headers
