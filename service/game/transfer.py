"""A campaign as one JSON document, and back: export for the GM, import into a new campaign anywhere.

The document holds the move log, not just the result: import replays every move through the engine
with its recorded dice and refuses the document unless it arrives at the state the export recorded.
Ids are fresh on import (campaign, players, characters), tokens are new, and the events keep their
sequence numbers, so a verifiable campaign's closed dice sessions still verify.
"""
from __future__ import annotations

import copy
import json
import uuid
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select

from service.game import idempotency, movelog
from service.game.auth import authenticate, check_operator_key, require_gm
from service.game.campaigns import campaign_view, open_dice_session, resolve_options
from service.game.context import Services
from service.game.errors import GameError, invalid
from service.game.tokens import hash_token, new_token
from service.i18n import DEFAULT, SUPPORTED
from service.i18n.message import _
from service.rules.registry import SYSTEMS
from service.store.records.models import (Campaign, Character, Credential, DiceSession, EventRecord, MoveRecord,
                                          Player, utcnow)

FORMAT = "rulekeeper-campaign/1"


class CampaignDocument(BaseModel):
    """What `GET …/export` returns and `POST /v1/campaigns/import` takes."""

    model_config = ConfigDict(extra="forbid", strict=True)
    format: Literal["rulekeeper-campaign/1"] = Field(description="The document's format and version.")
    campaign: dict[str, Any]
    players: list[dict[str, Any]]
    characters: list[dict[str, Any]]
    initial_state: dict[str, Any] = Field(description="The table at version 0, where every replay starts.")
    moves: list[dict[str, Any]]
    events: list[dict[str, Any]]
    dice_sessions: list[dict[str, Any]]
    final: dict[str, Any] = Field(description="`version` and `state_sha256` of the table the moves arrive at.")


def _iso(value) -> str | None:
    return value.isoformat() if value else None


async def export(svc: Services, campaign_id: str, token: str | None) -> dict[str, Any]:
    async with svc.read() as s:
        principal = await authenticate(s, token, campaign_id)
        require_gm(principal)
        c = await s.get(Campaign, campaign_id)
        system = SYSTEMS[c.system]
        if getattr(system, "hides_from_gm", lambda options: False)(c.options):
            raise GameError(403, "export_reveals_secrets", _("this campaign's options hide parts of the "
                                                             "characters from the GM; a full export would show "
                                                             "them"))
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
            raise GameError(409, sealed.code, _("{detail} (the export holds every die, the sealed ones too)",
                                                detail=sealed.detail))
        return {
            "format": FORMAT,
            "campaign": {k: v for k, v in campaign_view(c).items()},
            "players": [{"id": p.id, "name": p.name, "language": p.language} for p in players],
            "characters": [{"id": ch.id, "name": ch.name, "player_id": ch.player_id} for ch in characters],
            "initial_state": initial,
            "moves": [{"version": m.version, "kind": m.kind, "body": m.body, "actor": m.actor, "dice": m.dice,
                       "first_seq": m.first_seq, "last_seq": m.last_seq, "created_at": _iso(m.created_at)}
                      for m in moves],
            "events": [{"seq": e.seq, "type": e.type, "data": e.data, "redacted": e.redacted,
                        "visibility": e.visibility, "actor_role": e.actor_role,
                        "actor_player_id": e.actor_player_id, "created_at": _iso(e.created_at)} for e in events],
            # An open session's seed is still secret: it stays here, and its dice verify once it is closed here.
            "dice_sessions": [{"number": d.number, "commitment": d.commitment, "client_seed": d.client_seed,
                               "counter": d.counter, "status": d.status,
                               "seed": d.seed if d.status == "closed" else None,
                               "opened_at": _iso(d.opened_at), "closed_at": _iso(d.closed_at)} for d in sessions],
            "final": {"version": c.table_version, "state_sha256": movelog.state_hash(final)},
        }


def replay_document(doc: CampaignDocument) -> dict[str, Any]:
    """Every move of the document through the engine; the final state, or a 422 naming the first that failed."""
    system = SYSTEMS[doc.campaign["system"]]
    undo_targets = {m["body"]["target"] for m in doc.moves if m.get("kind") == "undo"}
    kept = {0: doc.initial_state} if 0 in undo_targets else {}
    state = copy.deepcopy(doc.initial_state)
    for i, m in enumerate(doc.moves):
        if m.get("version") != i + 1:
            raise invalid("import_invalid", _("moves must be numbered 1, 2, 3, …; move {i} is {version!r}",
                                              i=i, version=m.get('version')),
                          f"moves[{i}].version")
        try:
            if m["kind"] == "undo":
                state = copy.deepcopy(kept[m["body"]["target"]])
            else:
                state = movelog.replay_move(system, doc.campaign.get("dice_mode", "server"), state, m["kind"], m["body"], m["actor"], m["dice"])
        except (movelog.ReplayDiverged, KeyError, TypeError, ValueError) as exc:
            raise invalid("import_diverged", _("move {version} does not replay: {exc}",
                                               version=m.get('version'), exc=exc),
                          f"moves[{i}]") from None
        if m["version"] in undo_targets:
            kept[m["version"]] = copy.deepcopy(state)
    if doc.final.get("version") != len(doc.moves) or movelog.state_hash(state) != doc.final.get("state_sha256"):
        raise invalid("import_diverged", _("the moves do not arrive at the state the export recorded"), "final")
    return state


def _remap(value: Any, ids: dict[str, str]) -> Any:
    """Fresh ids everywhere they occur. They are UUIDs, so a textual swap cannot hit anything else."""
    text = json.dumps(value)
    for old, new in ids.items():
        text = text.replace(old, new)
    return json.loads(text)


async def import_campaign(svc: Services, doc: CampaignDocument, operator_key: str | None) -> dict[str, Any]:
    check_operator_key(svc.settings, operator_key)
    if doc.format != FORMAT:
        raise invalid("import_invalid", _("this service reads `{format}` documents", format=FORMAT), "format")
    meta = doc.campaign
    if meta.get("system") not in SYSTEMS:
        raise invalid("import_invalid", _("unknown rule system {system!r}", system=meta.get('system')), "campaign.system")
    options = resolve_options(meta["system"], meta.get("options") or {})
    final = replay_document(doc)
    ids = {meta["id"]: str(uuid.uuid4())}
    ids.update({p["id"]: str(uuid.uuid4()) for p in doc.players})
    ids.update({ch["id"]: str(uuid.uuid4()) for ch in doc.characters})
    final, moves, events, characters, initial = _remap(
        [final, doc.moves, doc.events, doc.characters, doc.initial_state], ids)
    gm_token = new_token("gm")
    player_tokens = []
    async with svc.write() as s:
        c = Campaign(id=ids[meta["id"]], name=str(meta.get("name", ""))[:200], system=meta["system"], options=options,
                     dice_mode=meta.get("dice_mode", "server"), last_seq=max((e["seq"] for e in events), default=0),
                     table_version=len(moves), status=meta.get("status", "active"),
                     language=meta["language"] if meta.get("language") in SUPPORTED else DEFAULT)
        s.add(c)
        await s.flush()
        s.add(Credential(id=str(uuid.uuid4()), campaign_id=c.id, role="gm", token_hash=hash_token(gm_token)))
        for p in doc.players:
            token = new_token("pl")
            language = p["language"] if p.get("language") in SUPPORTED else None
            s.add(Player(id=ids[p["id"]], campaign_id=c.id, name=str(p.get("name", ""))[:200], language=language))
            await s.flush()
            s.add(Credential(id=str(uuid.uuid4()), campaign_id=c.id, role="player", player_id=ids[p["id"]],
                             token_hash=hash_token(token)))
            player_tokens.append({"player": {"id": ids[p["id"]], "name": p.get("name"), "language": language},
                                  "token": token})
        for ch in characters:
            s.add(Character(id=ch["id"], campaign_id=c.id, player_id=ch.get("player_id"), name=ch.get("name", ""),
                            sheet=final["characters"].get(ch["id"], {}), version=1))
        await s.flush()
        for m in moves:
            s.add(MoveRecord(campaign_id=c.id, version=m["version"], kind=m["kind"], body=m["body"], actor=m["actor"],
                             dice=m["dice"], first_seq=m["first_seq"], last_seq=m["last_seq"]))
        for e in events:
            s.add(EventRecord(campaign_id=c.id, seq=e["seq"], type=e["type"], data=e["data"], redacted=e.get("redacted"),
                              visibility=e.get("visibility", "all"), actor_role=e.get("actor_role", "gm"),
                              actor_player_id=e.get("actor_player_id")))
        movelog.snapshot(s, c, 0, initial)
        if len(moves):
            movelog.snapshot(s, c, len(moves), final)
        numbers = [0]
        for d in doc.dice_sessions:
            closed = d.get("status") == "closed" and d.get("seed")
            s.add(DiceSession(id=str(uuid.uuid4()), campaign_id=c.id, number=d["number"], commitment=d["commitment"],
                              seed=d["seed"] if closed else "", client_seed=d.get("client_seed", ""),
                              counter=d.get("counter", 0), status="closed" if closed else "unrevealed",
                              closed_at=utcnow() if closed else None))
            numbers.append(d["number"])
        if c.dice_mode == "verifiable":
            await open_dice_session(s, c.id, max(numbers) + 1)
        await s.flush()
        return await idempotency.complete(s, {"campaign": campaign_view(c), "gm_token": gm_token,
                                              "players": player_tokens})
