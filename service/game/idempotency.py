"""Idempotency-Key: a retried write returns the first reply and changes nothing.

Who: the caller is authenticated before the key is looked at (a 401 says nothing about keys), and keys
live in the caller's own space: the credential's for a campaign write; for campaign creation the operator
key's, or with no operator key the anonymous space, where the key itself is the caller's only secret and
so must be long enough not to be guessed.

What is stored: a keyed hash of the key, a MAC of the request (operation, path, body), and the reply
sealed with AES-GCM. All three keys are derived from the Idempotency-Key together with the caller's bearer
secret, which the database never holds (only its hash), so a leaked table reveals no reply (no GM or
player token in one), and another caller derives other keys and finds nothing.

When: a move claims its key in its own write transaction, once the caller is authenticated and the campaign
locked (`claim_in_command`): a second copy waits for the lock and then finds the first's reply, and a refused
move leaves nothing to free. Every other command claims the key in a transaction of its own before it runs, so
two copies of a request cannot both apply (the second gets 409). The command seals its reply inside its own write transaction
(`complete`), so the reply exists exactly when the effects committed. A claim whose request died expires
after the lease and a retry takes it over by compare-and-set; should the original wake up, its `complete`
finds the lease gone and its transaction rolls back. Records expire after the TTL and are purged now and
then by the requests that use keys.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import math
import os
import secrets
import time
import weakref
from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, TypeVar, cast

from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.hashes import SHA256
from cryptography.hazmat.primitives.kdf.hkdf import HKDF
from sqlalchemy import CursorResult, Table, and_, bindparam, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from service.game.auth import authenticate, check_operator_key
from service.game.context import Services
from service.game.errors import GameError
from service.game.tokens import hash_token
from service.i18n.message import _, _n
from service.store.records import pgdirect
from service.store.records.db import json_dumps
from service.store.records.models import IdempotencyRecord

T = TypeVar("T")

MAX_KEY = 200
# An anonymous caller's key is all that tells its retry from a stranger's request: 32 characters of a
# UUID or a random string are beyond guessing.
MIN_ANONYMOUS_KEY = 32
PURGE_EVERY_SECONDS = 60.0

clock: Callable[[], float] = time.time  # unix seconds; tests move time by replacing this


def _in_progress(seconds_left: float = 1) -> GameError:
    """Retry-After: by then the first request has answered, or its lease is over and a retry may run it."""
    return GameError(
        409,
        "request_in_progress",
        _("a request with this Idempotency-Key is still running"),
        field="Idempotency-Key",
        extra={"retry_after": max(1, math.ceil(seconds_left))},
    )


def _reused() -> GameError:
    return GameError(
        422,
        "idempotency_key_reused",
        _("this Idempotency-Key was used for a different request"),
        field="Idempotency-Key",
    )


class LeaseLost(GameError):
    """The claim ran out and a retry took the key over: this run must not commit."""

    def __init__(self) -> None:
        err = _in_progress()
        super().__init__(err.status, err.code, err.detail, field=err.field)


@dataclass(frozen=True)
class _Slot:
    """Where one caller's key lives, and the keys that seal and check it."""

    owner: str
    key_hash: str
    mac_key: bytes
    seal_key: bytes

    def mac(self, fingerprint: bytes) -> str:
        return hmac.new(self.mac_key, fingerprint, hashlib.sha256).hexdigest()

    def _aad(self) -> bytes:
        return f"{self.owner}\n{self.key_hash}".encode()

    def seal(self, body: Any) -> str:
        nonce = os.urandom(12)
        sealed = AESGCM(self.seal_key).encrypt(nonce, json_dumps(body).encode(), self._aad())
        return base64.b64encode(nonce + sealed).decode()

    def open(self, text: str) -> Any:
        raw = base64.b64decode(text)
        return json.loads(AESGCM(self.seal_key).decrypt(raw[:12], raw[12:], self._aad()))


@dataclass
class _Claim:
    slot: _Slot
    lease: str
    ttl: float
    recorded: bool = False
    # Claimed in the command's own transaction: no row is written until `complete` writes it with the reply, over
    # `taken_over`'s row when an expired record or a dead claim held the key.
    request_mac: str | None = None
    taken_over: str | None = None


@dataclass
class _InCommand:
    """A key the command claims in its own transaction (`claim_in_command`), with what its slot is made of."""

    key: str
    fingerprint: bytes
    secret: str
    ttl: float
    claim: _Claim | None = None


class _Replay(Exception):
    """Ends a command whose key already has a reply: its transaction rolls back, and run_once answers the reply."""

    def __init__(self, stored: Any) -> None:
        super().__init__()
        self.stored = stored


# Built once, with bound parameters: a keyed request runs three or four of them, and building one cost as much as
# running it (the ORM's identity map and unit of work bought nothing for a row read once and written once). A
# claim made before the command runs writes its row with no reply; a move's claim (claim_in_command) writes it once,
# with the reply, from `complete`.
_records = cast(Table, IdempotencyRecord.__table__)
_this_key = and_(_records.c.owner == bindparam("p_owner"), _records.c.key_hash == bindparam("p_key_hash"))
_FIND = select(
    _records.c.request_mac, _records.c.lease, _records.c.lease_until, _records.c.reply, _records.c.expires_at
).where(_this_key)
_FRESH: dict[str, Any] = {
    "request_mac": bindparam("p_request_mac"),
    "lease": bindparam("p_lease"),
    "lease_until": bindparam("p_lease_until"),
    "reply": bindparam("p_reply"),
    "expires_at": bindparam("p_expires_at"),
}
_INSERT = insert(_records).values(owner=bindparam("p_owner"), key_hash=bindparam("p_key_hash"), **_FRESH)
_TAKE_OVER = update(_records).where(_this_key, _records.c.lease == bindparam("p_old_lease")).values(**_FRESH)
_COMPLETE = (
    update(_records)
    .where(_this_key, _records.c.lease == bindparam("p_lease"), _records.c.reply.is_(None))
    .values(reply=bindparam("p_reply"), expires_at=bindparam("p_expires_at"))
)
# The two statements a keyed move adds to its transaction go on asyncpg directly on PostgreSQL
# (service/store/records/pgdirect.py), as the move's own statements do.
_DIRECT_FIND = pgdirect.Direct(_FIND)
_DIRECT_INSERT = pgdirect.Direct(_INSERT)
_RELEASE = delete(_records).where(_this_key, _records.c.lease == bindparam("p_lease"), _records.c.reply.is_(None))
_PURGE = delete(_records).where(_records.c.expires_at <= bindparam("p_now"))


_current: ContextVar[_Claim | _InCommand | None] = ContextVar("idempotency_claim", default=None)
_last_purge: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _slot(owner: str, secret: str, key: str) -> _Slot:
    material = len(secret).to_bytes(4, "big") + secret.encode() + key.encode()
    okm = HKDF(algorithm=SHA256(), length=96, salt=b"rulekeeper idempotency v1", info=owner.encode()).derive(material)
    return _Slot(owner, okm[:32].hex(), okm[32:64], okm[64:])


async def _caller(svc: Services, token: str | None, campaign_id: str | None) -> tuple[str, str, bool]:
    """(owner, secret, anonymous) of the request, or the 401 it gets before any key is looked up."""
    if campaign_id is not None:
        async with svc.read() as s:
            principal = await authenticate(s, token, campaign_id)
        return principal.credential_id, token or "", False
    check_operator_key(svc.settings, token)
    if svc.settings.operator_key is not None:
        return "operator:" + hash_token(token or "")[:32], token or "", False
    return "anonymous", "", True


def _retry_of(rec: Any, request_mac: str, now: float) -> str | None:
    """What the record already held for this caller's key says of this request: the sealed reply of the request
    it repeats, or None when the key is free to take (no record, or an expired one, or a claim whose request
    died). Refused: the key stands for another request (422), or that request is still running (409)."""
    if rec is None or rec["expires_at"] <= now:
        return None
    if not hmac.compare_digest(rec["request_mac"], request_mac):
        raise _reused()
    if rec["reply"] is not None:
        return rec["reply"]
    if rec["lease_until"] > now:
        raise _in_progress(rec["lease_until"] - now)
    return None


def _check_key(key: str, anonymous: bool) -> None:
    if len(key) > MAX_KEY:
        raise GameError(
            400,
            "invalid_idempotency_key",
            _n(
                "Idempotency-Key is limited to {max_key} character",
                "Idempotency-Key is limited to {max_key} characters",
                MAX_KEY,
                max_key=MAX_KEY,
            ),
            field="Idempotency-Key",
        )
    if anonymous and len(key) < MIN_ANONYMOUS_KEY:
        raise GameError(
            400,
            "invalid_idempotency_key",
            _n(
                "without a bearer token the Idempotency-Key is the request's only secret: send at "
                "least {min_anonymous_key} random character (a UUID will do)",
                "without a bearer token the Idempotency-Key is the request's only secret: send at "
                "least {min_anonymous_key} random characters (a UUID will do)",
                MIN_ANONYMOUS_KEY,
                min_anonymous_key=MIN_ANONYMOUS_KEY,
            ),
            field="Idempotency-Key",
        )


def fingerprint(*parts: Any) -> bytes:
    """What one key may stand for, the same way on both transports: the transport, the operation, what it
    writes to, the body and the precondition, as canonical JSON."""
    return json.dumps(list(parts), sort_keys=True).encode()


async def run_once(
    svc: Services,
    token: str | None,
    campaign_id: str | None,
    key: str,
    fingerprint: bytes,
    run: Callable[[], Awaitable[T]],
    replay: Callable[[Any], T],
    *,
    in_command: bool = False,
) -> T:
    """Run the command once per key: `run` the first time, `replay(stored reply)` on every retry.

    `campaign_id` is the campaign the request writes to (None for campaign creation); `fingerprint`
    names the operation, path and body, so the key cannot be reused for another request. `in_command`: the
    command claims the key itself, in its write transaction (`claim_in_command`), rather than in one of its own
    first; only for a command on a campaign."""
    if in_command and campaign_id is not None:
        return await _run_in_command(svc, token, key, fingerprint, run, replay)
    owner, secret, anonymous = await _caller(svc, token, campaign_id)
    # Outside a campaign (creating or importing one) keys are held to the anonymous length whether or not the
    # deployment sets an operator key, so the contract can state one rule.
    _check_key(key, anonymous or campaign_id is None)
    slot = _slot(owner, secret, key)
    await _purge_now_and_then(svc)
    claim, stored = await _claim(svc, slot, slot.mac(fingerprint))
    if claim is None:
        return replay(stored)
    context = _current.set(claim)
    try:
        result = await run()
    except LeaseLost:
        # A retry took the key over while this run stalled; this run's effects rolled back. Its outcome,
        # once it has one, is the answer.
        stored = await _stored(svc, slot)
        if stored is None:
            raise
        return replay(stored)
    except BaseException:
        # A key that cannot be freed now (the database is gone too) waits out its lease instead.
        with contextlib.suppress(Exception):
            await _release(svc, claim)
        raise
    finally:
        _current.reset(context)
    if not claim.recorded:
        # A command that takes a key must call `complete` in its write transaction; without it the
        # effects are committed but no reply is, and a retry after the lease would apply them twice.
        raise RuntimeError("the command did not record its idempotent reply")
    return result


async def _run_in_command(
    svc: Services,
    token: str | None,
    key: str,
    fingerprint: bytes,
    run: Callable[[], Awaitable[T]],
    replay: Callable[[Any], T],
) -> T:
    await _purge_now_and_then(svc)
    pending = _InCommand(key, fingerprint, token or "", svc.settings.idempotency_ttl_seconds)
    context = _current.set(pending)
    try:
        result = await run()
    except _Replay as replayed:
        return replay(replayed.stored)
    finally:
        _current.reset(context)
    # A refused command raised above and left no record: its transaction wrote none (or rolled back).
    if pending.claim is None or not pending.claim.recorded:
        raise RuntimeError("the command did not claim its key and record its idempotent reply")
    return result


async def claim_in_command(s, owner: str) -> None:
    """Claim the running request's key in the command's own write transaction `s`, for a command run with
    `run_once(..., in_command=True)`: call it once the caller is authenticated (`owner` is its credential) and
    the campaign locked, before any die is drawn. A retry of a request whose reply committed ends here, and is
    answered that reply; a copy that was waiting for the lock finds the first copy's reply the same way.
    Without a key, or for a command that claimed its key before it ran, it does nothing."""
    pending = _current.get()
    if not isinstance(pending, _InCommand):
        return
    _check_key(pending.key, anonymous=False)
    slot = _slot(owner, pending.secret, pending.key)
    request_mac = slot.mac(pending.fingerprint)
    if pgdirect.on_postgres(s):
        found = await pgdirect.fetch(s, _DIRECT_FIND, _key_params(slot))
        rec: Any = found[0] if found else None
    else:
        rec = (await s.execute(_FIND, _key_params(slot))).mappings().first()
    replied = _retry_of(rec, request_mac, clock())
    if replied is not None:
        raise _Replay(slot.open(replied))
    pending.claim = _Claim(
        slot,
        secrets.token_hex(16),
        pending.ttl,
        request_mac=request_mac,
        taken_over=None if rec is None else rec["lease"],
    )


async def complete(s, body: T) -> T:
    """Record the reply of the running keyed request in the command's own transaction `s`; returns `body`.

    Call it last, with the reply as the caller will receive it. Without a key it does nothing."""
    current = _current.get()
    claim = current.claim if isinstance(current, _InCommand) else current
    if claim is None:
        return body
    slot = claim.slot
    now = clock()
    sealed = {"p_reply": slot.seal(body), "p_expires_at": now + claim.ttl}
    if claim.request_mac is None:  # claimed before the command ran: the row is there, without its reply
        done = await s.execute(_COMPLETE, {**_key_params(slot), "p_lease": claim.lease, **sealed})
        rows = done.rowcount
    else:
        params = {
            **_key_params(slot),
            "p_request_mac": claim.request_mac,
            "p_lease": claim.lease,
            "p_lease_until": now,
            **sealed,
        }
        try:
            if claim.taken_over is not None:
                rows = (await s.execute(_TAKE_OVER, {**params, "p_old_lease": claim.taken_over})).rowcount
            elif pgdirect.on_postgres(s):
                await pgdirect.fetch(s, _DIRECT_INSERT, params)
                rows = 1
            else:
                rows = (await s.execute(_INSERT, params)).rowcount
        except IntegrityError:
            # A request of the same caller that claims before it runs took the key meanwhile (the campaign's lock
            # keeps out every copy that claims here): the whole transaction rolls back, as when a lease is lost.
            raise LeaseLost() from None
    if rows != 1:
        raise LeaseLost()
    claim.recorded = True
    return body


async def _claim(svc: Services, slot: _Slot, request_mac: str) -> tuple[_Claim | None, Any]:
    """(the claim, None) when this request should run; (None, stored reply) when it is a retry."""
    settings = svc.settings
    lease = secrets.token_hex(16)
    claim = _Claim(slot, lease, settings.idempotency_ttl_seconds)
    now = clock()
    fresh = {
        "p_request_mac": request_mac,
        "p_lease": lease,
        "p_lease_until": now + settings.idempotency_lease_seconds,
        "p_reply": None,
        "p_expires_at": now + settings.idempotency_ttl_seconds,
    }
    key = _key_params(slot)
    try:
        async with svc.write() as s:
            rec = (await s.execute(_FIND, key)).mappings().first()
            if rec is None:
                await s.execute(_INSERT, {**key, **fresh})
                return claim, None
            replied = _retry_of(rec, request_mac, now)
            if replied is not None:
                return None, slot.open(replied)
            # Expired, or claimed by a request that died: take it over, unless another retry just did.
            taken = await s.execute(_TAKE_OVER, {**key, **fresh, "p_old_lease": rec["lease"]})
            # An UPDATE answers with a CursorResult, which execute() is not typed to return.
            if cast(CursorResult[Any], taken).rowcount != 1:
                raise _in_progress()
            return claim, None
    except IntegrityError:
        raise _in_progress() from None


async def _stored(svc: Services, slot: _Slot) -> Any:
    async with svc.read() as s:
        rec = (await s.execute(_FIND, _key_params(slot))).first()
        return slot.open(rec.reply) if rec is not None and rec.reply is not None else None


async def _release(svc: Services, claim: _Claim) -> None:
    """A command that failed changed nothing: free its key so the client may retry. A run whose reply
    did commit (and failed afterwards) keeps it."""
    async with svc.write() as s:
        await s.execute(_RELEASE, {**_key_params(claim.slot), "p_lease": claim.lease})


async def _purge_now_and_then(svc: Services) -> None:
    now = clock()
    last = _last_purge.get(svc.engine)
    if last is not None and last <= now < last + PURGE_EVERY_SECONDS:
        return
    _last_purge[svc.engine] = now
    async with svc.write() as s:
        await s.execute(_PURGE, {"p_now": now})


def _key_params(slot: _Slot) -> dict[str, str]:
    return {"p_owner": slot.owner, "p_key_hash": slot.key_hash}
