"""A campaign as one JSON document, and back: export for the GM, import into a new campaign anywhere.

The document holds the move log, not just the result. An import believes none of it: the engine rebuilds the
table from the options, replays every move with its recorded dice and compares each move's events with the
replay's own (service/game/transfer/replay.py). Ids are fresh on import (campaign, players, characters), tokens
and webhook secrets are new, and the events keep their sequence numbers, so a verifiable campaign's closed
dice sessions still verify. The imported campaign says where it came from, and its dice say they were not
rolled here.
"""

from __future__ import annotations

import asyncio
import re
import uuid
from datetime import datetime, timezone
from typing import Any

from sqlalchemy import insert, select

from service.game.deadlines import sync as deadline_sync
from service.game.webhooks import egress
from service.game import idempotency
from service.game.transfer import replay as import_replay
from service.game.log import moves as movelog
from service.game.auth import authenticate, check_import_allowed, require_gm
from service.game.campaigns.records import campaign_view, open_dice_session, resolve_options
from service.game.context import Services
from service.game.deadlines.settings import TurnDeadlines
from service.game.errors import GameError, not_found
from service.game.webhooks.signing import Sealer, new_secret
from service.game.tokens import hash_token, new_token
from service.game.transfer.document import FORMAT, CampaignDocument, check_references
from service.i18n.message import _, _n
from service.rules.registry import SYSTEMS
from service.store.records.clocks import CampaignClock
from service.store.records.models import (
    Campaign,
    Character,
    Credential,
    DiceSession,
    EventRecord,
    MoveRecord,
    Player,
    SnapshotRecord,
    Webhook,
    utcnow,
)

__all__ = ["FORMAT", "CampaignDocument", "export", "import_campaign"]


def _iso(value) -> str | None:
    return value.isoformat() if value else None


async def export(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    async with svc.read() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        c = await s.get(Campaign, campaign_id)
        if c is None:  # gone since authenticate() found its token
            raise not_found("campaign", "campaign_id")
        system = SYSTEMS[c.system]
        if getattr(system, "hides_from_gm", lambda options: False)(c.options):
            raise GameError(
                403,
                "export_reveals_secrets",
                _("this campaign's options hide parts of the characters from the GM; a full export would show them"),
            )
        where = lambda model: model.campaign_id == campaign_id  # noqa: E731
        players = await s.scalars(select(Player).where(where(Player)).order_by(Player.created_at))
        characters = await s.scalars(select(Character).where(where(Character)).order_by(Character.created_at))
        moves = await s.scalars(select(MoveRecord).where(where(MoveRecord)).order_by(MoveRecord.version))
        events = await s.scalars(select(EventRecord).where(where(EventRecord)).order_by(EventRecord.seq))
        sessions = await s.scalars(select(DiceSession).where(where(DiceSession)).order_by(DiceSession.number))
        initial = await movelog.state_at(s, c, 0)
        final = await movelog.state_at(s, c, c.table_version)
        # The document holds every die, sealed ones too: not while they still decide something hidden.
        sealed = getattr(system, "session_close_blocker", lambda table: None)(final["table"])
        if sealed is not None:
            raise GameError(
                409, sealed.code, _("{detail} (the export holds every die, the sealed ones too)", detail=sealed.detail)
            )
        clock = await s.get(CampaignClock, campaign_id)
        hooks = await s.scalars(select(Webhook).where(where(Webhook)).order_by(Webhook.created_at))
        return {
            "format": FORMAT,
            "exported_at": utcnow().isoformat(),
            "campaign": {
                "id": c.id,
                "name": c.name,
                "system": c.system,
                "options": c.options,
                "dice_mode": c.dice_mode,
                "status": c.status,
                "language": c.language,
                "created_at": _iso(c.created_at),
                "imported": c.imported,
            },
            "players": [{"id": p.id, "name": p.name, "language": p.language} for p in players],
            "characters": [{"id": ch.id, "name": ch.name, "player_id": ch.player_id} for ch in characters],
            "initial_state": initial,
            "moves": [
                {
                    "version": m.version,
                    "kind": m.kind,
                    "body": m.body,
                    "actor": m.actor,
                    "dice": m.dice,
                    "first_seq": m.first_seq,
                    "last_seq": m.last_seq,
                    "created_at": _iso(m.created_at),
                }
                for m in moves
            ],
            "events": [
                {
                    "seq": e.seq,
                    "type": e.type,
                    "data": e.data,
                    "redacted": e.redacted,
                    "visibility": e.visibility,
                    "actor_role": e.actor_role,
                    "actor_player_id": e.actor_player_id,
                    "created_at": _iso(e.created_at),
                }
                for e in events
            ],
            # An open session's seed is still secret: it stays here, and its dice verify once it is closed here.
            "dice_sessions": [
                {
                    "number": d.number,
                    "commitment": d.commitment,
                    "client_seed": d.client_seed,
                    "counter": d.counter,
                    "status": d.status,
                    "seed": d.seed if d.status == "closed" else None,
                    "opened_at": _iso(d.opened_at),
                    "closed_at": _iso(d.closed_at),
                }
                for d in sessions
            ],
            "final": {"version": c.table_version, "state_sha256": movelog.state_hash(final)},
            "deadlines": None if clock is None else {"settings": clock.settings, "paused": bool(clock.paused)},
            # Never a secret: the importing server signs with secrets of its own.
            "webhooks": [
                {
                    "url": w.url,
                    "event_types": list(w.event_types),
                    "view": w.view,
                    "status": w.status,
                    "description": w.description,
                }
                for w in hooks
            ],
        }


_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


def _remap(value: Any, ids: dict[str, str]) -> Any:
    """Fresh ids everywhere they occur, in one walk: keys and strings, a UUID inside a string too."""
    if isinstance(value, str):
        return _UUID.sub(lambda m: ids.get(m.group(0), m.group(0)), value) if "-" in value else value
    if isinstance(value, dict):
        return {_remap(k, ids): _remap(v, ids) for k, v in value.items()}
    if isinstance(value, list):
        return [_remap(v, ids) for v in value]
    return value


# Rows per INSERT: each batch holds the event loop only briefly, and the loop serves others between batches.
BATCH = 500


async def _insert(s, model, rows: list[dict[str, Any]]) -> None:
    for start in range(0, len(rows), BATCH):
        await s.execute(insert(model), rows[start : start + BATCH])
        await asyncio.sleep(0)


# Imports in flight, by caller: one at a time each, so no caller holds the replay threads.
_RUNNING: set[str] = set()


async def import_campaign(
    svc: Services, doc: CampaignDocument, operator_key: str | None, caller: str = ""
) -> dict[str, Any]:
    check_import_allowed(svc.settings, operator_key)
    if len(doc.moves) > svc.settings.import_max_moves:
        raise GameError(
            413,
            "import_too_long",
            _n(
                "this deployment imports documents of at most {max_moves} move",
                "this deployment imports documents of at most {max_moves} moves",
                svc.settings.import_max_moves,
                max_moves=svc.settings.import_max_moves,
            ),
            field="moves",
        )
    check_references(doc)
    key = hash_token(operator_key)[:32] if operator_key else caller
    if key in _RUNNING:
        raise GameError(
            429,
            "import_in_progress",
            _("an import of yours is still running; wait for it to finish"),
            extra={"retry_after": 1},
        )
    _RUNNING.add(key)
    try:
        return await _import(svc, doc)
    finally:
        _RUNNING.discard(key)


async def _import(svc: Services, doc: CampaignDocument) -> dict[str, Any]:
    meta = doc.campaign
    system = SYSTEMS[meta.system]
    options = resolve_options(meta.system, meta.options)
    for i, w in enumerate(doc.webhooks):
        try:
            await egress.check_url(w.url, svc.settings.webhooks_allow_loopback)
        except GameError as exc:
            raise GameError(exc.status, exc.code, exc.detail, field=f"webhooks.{i}.url") from None
    # The replay is the long part: on a worker thread, so the event loop keeps serving everyone else.
    done = await asyncio.to_thread(import_replay.replay, doc, system, options, snapshot_every=movelog.SNAPSHOT_EVERY)
    sealed = getattr(system, "session_close_blocker", lambda table: None)(done.final["table"])
    if sealed is not None:
        raise GameError(
            409,
            sealed.code,
            _("{detail} (the document's sealed dice would decide what comes next)", detail=sealed.detail),
        )
    sessions = import_replay.verify_sessions(doc, done.events)
    ids = {meta.id: str(uuid.uuid4())}
    ids.update({p.id: str(uuid.uuid4()) for p in doc.players})
    ids.update({ch.id: str(uuid.uuid4()) for ch in doc.characters})
    remapped = await asyncio.to_thread(
        _remap,
        {
            "final": done.final,
            "initial": done.initial,
            "snapshots": {str(v): s for v, s in done.snapshots.items()},
            "moves": [m.model_dump() for m in doc.moves],
            "events": done.events,
        },
        ids,
    )
    final = remapped["final"]
    version = len(doc.moves)
    imported = {
        "from_campaign": meta.id,
        "exported_at": doc.exported_at,
        "imported_at": datetime.now(timezone.utc).isoformat(),
        "first_server_version": version + 1,
    }
    gm_token = new_token("gm")
    player_tokens = []
    async with svc.write() as s:
        c = Campaign(
            id=ids[meta.id],
            name=meta.name,
            system=meta.system,
            options=options,
            dice_mode=meta.dice_mode,
            last_seq=max((e.seq for e in doc.events), default=0),
            table_version=version,
            status=meta.status,
            language=meta.language,
            imported=imported,
        )
        s.add(c)
        await s.flush()
        s.add(Credential(id=str(uuid.uuid4()), campaign_id=c.id, role="gm", token_hash=hash_token(gm_token)))
        for p in doc.players:
            token = new_token("pl")
            s.add(Player(id=ids[p.id], campaign_id=c.id, name=p.name, language=p.language))
            await s.flush()
            s.add(
                Credential(
                    id=str(uuid.uuid4()),
                    campaign_id=c.id,
                    role="player",
                    player_id=ids[p.id],
                    token_hash=hash_token(token),
                )
            )
            player_tokens.append({"player": {"id": ids[p.id], "name": p.name, "language": p.language}, "token": token})
        for ch in doc.characters:
            cid = ids[ch.id]
            sheet = final["characters"].get(cid)
            if sheet is None:
                raise GameError(
                    422,
                    "import_invalid",
                    _("character {cid} is listed but no move creates it", cid=ch.id),
                    field="characters",
                )
            s.add(
                Character(
                    id=cid,
                    campaign_id=c.id,
                    player_id=ids.get(ch.player_id) if ch.player_id else None,
                    name=ch.name,
                    sheet=sheet,
                    version=1,
                )
            )
        await s.flush()
        engine = movelog.engine_version(system)
        snapshots = {0: remapped["initial"], **{int(v): state for v, state in remapped["snapshots"].items()}}
        snapshots.setdefault(version, final)
        now = utcnow()
        await _insert(
            s,
            MoveRecord,
            [
                {
                    "campaign_id": c.id,
                    "version": m["version"],
                    "kind": m["kind"],
                    "body": m["body"],
                    "actor": m["actor"],
                    "dice": m["dice"],
                    "first_seq": m["first_seq"],
                    "last_seq": m["last_seq"],
                    "created_at": now,
                }
                for m in remapped["moves"]
            ],
        )
        await _insert(s, EventRecord, [{"campaign_id": c.id, **e, "created_at": now} for e in remapped["events"]])
        await _insert(
            s,
            SnapshotRecord,
            [
                {"campaign_id": c.id, "version": v, "engine_version": engine, "state": state}
                for v, state in snapshots.items()
            ],
        )
        for d in doc.dice_sessions:
            closed = sessions[d.number] == "closed"
            s.add(
                DiceSession(
                    id=str(uuid.uuid4()),
                    campaign_id=c.id,
                    number=d.number,
                    commitment=d.commitment,
                    seed=d.seed if closed else "",
                    client_seed=d.client_seed,
                    counter=d.counter,
                    status=sessions[d.number],
                    closed_at=utcnow() if closed else None,
                )
            )
        if c.dice_mode == "verifiable":
            await open_dice_session(s, c.id, max((d.number for d in doc.dice_sessions), default=0) + 1)
        to_set = []
        if doc.deadlines is not None:
            # Paused: the players have no tokens yet, and a clock must not play for them meanwhile.
            clock = CampaignClock(
                campaign_id=c.id,
                settings=TurnDeadlines.model_validate(doc.deadlines.settings.model_dump()).model_dump(mode="json"),
                paused=True,
                updated_at=utcnow(),
            )
            s.add(clock)
            deadline_sync.remember(s, c.id, clock)
            await s.flush()
            if c.status == "active":
                await deadline_sync.after_move(s, c, final["table"])
            if doc.deadlines.settings.enabled:
                to_set.append(
                    {
                        "what": "deadlines",
                        "id": None,
                        "detail": _(
                            "the turn deadlines are paused: resume them once the players have their new tokens"
                        ),
                    }
                )
        sealer = Sealer(svc.settings.webhooks_secrets_key)
        for w in doc.webhooks:
            hook = Webhook(
                id=str(uuid.uuid4()),
                campaign_id=c.id,
                url=w.url,
                event_types=sorted(set(w.event_types)),
                view=w.view,
                status="paused",
                description=w.description,
            )
            hook.secret = sealer.seal(hook.id, new_secret())
            s.add(hook)
            to_set.append(
                {
                    "what": "webhook_secret",
                    "id": hook.id,
                    "detail": _(
                        "the webhook is paused with a new signing secret: rotate the secret, give it "
                        "to the receiver, then set the webhook active"
                    ),
                }
            )
        to_set.append(
            {
                "what": "tokens",
                "id": None,
                "detail": _("every token is new: hand each player theirs; the old ones do not work here"),
            }
        )
        await s.flush()
        return await idempotency.complete(
            s, {"campaign": campaign_view(c), "gm_token": gm_token, "players": player_tokens, "to_set_again": to_set}
        )
