"""Campaign documents of any length, built with the engine itself (no server needed): what the import tests and
the import benchmark send. Each added move is a GM note, so the document replays exactly as it says."""

from __future__ import annotations

import json
from typing import Any

from service.game.transfer import replay as import_replay
from service.game.log import moves as movelog
from service.game.campaigns.records import resolve_options
from service.game.transfer.document import CampaignDocument
from service.rules.registry import SYSTEMS


def lengthened(doc: dict[str, Any], moves: int) -> dict[str, Any]:
    """`doc` (an export of a campaign with a scene open) carried on with GM notes up to `moves` moves."""
    system = SYSTEMS[doc["campaign"]["system"]]
    options = resolve_options(system.id, doc["campaign"]["options"])
    state = import_replay.replay(
        CampaignDocument.model_validate(doc, strict=False), system, options, snapshot_every=movelog.SNAPSHOT_EVERY
    ).final
    out = json.loads(json.dumps(doc))
    seq = max(e["seq"] for e in out["events"])
    gm = {"role": "gm", "player_id": None, "character_ids": []}
    while len(out["moves"]) < moves:
        version = len(out["moves"]) + 1
        raw = {"type": "gm_note", "text": f"note {version}"}
        action = movelog.action_adapter(system.id).validate_python(raw)
        state, events = system.apply(
            state, action, movelog.actor_from(gm), import_replay._Dice([], out["campaign"]["dice_mode"])
        )
        first = seq + 1
        for ev in events:
            seq += 1
            out["events"].append(
                json.loads(
                    json.dumps(
                        {
                            "seq": seq,
                            "type": ev.type,
                            "data": ev.data,
                            "redacted": ev.redacted,
                            "visibility": ev.visibility,
                            "actor_role": "gm",
                            "actor_player_id": None,
                            "created_at": None,
                        }
                    )
                )
            )
        out["moves"].append(
            {
                "version": version,
                "kind": "action",
                "body": {"action": raw},
                "actor": gm,
                "dice": [],
                "first_seq": first,
                "last_seq": seq,
                "created_at": None,
            }
        )
    out["final"] = {"version": len(out["moves"]), "state_sha256": movelog.state_hash(json.loads(json.dumps(state)))}
    return out
