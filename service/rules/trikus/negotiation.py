"""Negotiation (advanced, L342–L348; spec 4.18, A40): ask the opponent to re-throw the die that set
your target; the new face is the target, even if lower; losing afterwards is a Catastrophe."""

from __future__ import annotations

from typing import Any

from service.i18n.message import _
from service.rules.trikus import boom, contest
from service.rules.trikus.context import Ctx
from service.rules.trikus.errors import violation
from service.rules.trikus.events_model import (
    TrikusNegotiationAnswered,
    TrikusNegotiationProposed,
    TrikusNegotiationRethrown,
)


def check_propose(ctx: Ctx, act: dict[str, Any], cid: str) -> dict[str, Any]:
    if not ctx.options.adv_negotiation:
        raise violation("option_disabled", _("negotiation is an advanced rule (adv_negotiation is off)"))
    c = act["contest"]
    if c["stage"] in ("negotiation_offered", "negotiation_rethrow"):
        raise violation("negotiation_pending", _("a negotiation is already being answered"))
    if c["stage"] != "wave":
        raise violation(
            "wrong_phase", _("negotiation is proposed while dice are being thrown, not in {stage}", stage=c["stage"])
        )
    p = contest.pair_of(c, cid)
    if p is None or p["outcome"] != "open":
        raise violation("pair_not_open", _("{cid} has no open contest to negotiate", cid=cid))
    st = p["state"]
    if st["kind"] != "ctrl" or st["side"] == cid:
        raise violation("opponent_not_in_control", _("only the side below the opponent's target proposes (L346)"))
    if c["unthrown"].get(cid, 0) < 1:
        raise violation("no_unthrown_die", _("a proposer needs a die left to throw (A40 vii)"))
    if c["submitted"]:
        raise violation("throw_already_submitted", _("propose before anyone throws in this wave (spec 4.18)"))
    d = contest.die(c, st["die"])
    if d["renegotiated"]:
        raise violation("die_already_renegotiated", _("each die is renegotiated at most once (A40 v)"))
    if d.get("proposed"):
        # A die is offered for negotiation once: a refusal stands, so proposals cannot stall a test.
        raise violation("negotiation_already_refused", _("this die was already offered and refused"))
    return p


def propose(ctx: Ctx, act: dict[str, Any], cid: str, p: dict[str, Any]) -> None:
    c = act["contest"]
    st = p["state"]
    c["negotiation"] = {"proposer": cid, "responder": st["side"], "die": st["die"]}
    contest.die(c, st["die"])["proposed"] = True
    c["stage"] = "negotiation_offered"
    ctx.emit(
        "negotiation_proposed",
        TrikusNegotiationProposed(
            activity_id=act["id"],
            character_id=cid,
            responder=st["side"],
            die_id=st["die"],
            value=contest.die(c, st["die"])["value"],
        ),
    )


def answer(ctx: Ctx, act: dict[str, Any], accept: bool) -> None:
    c = act["contest"]
    neg = c["negotiation"]
    ctx.emit(
        "negotiation_answered",
        TrikusNegotiationAnswered(
            activity_id=act["id"], proposer=neg["proposer"], responder=neg["responder"], accept=accept
        ),
    )
    if accept:
        c["stage"] = "negotiation_rethrow"
    else:
        c["negotiation"], c["stage"] = None, "wave"  # nothing happens; no penalty (spec 4.18)


def rethrow(ctx: Ctx, act: dict[str, Any]) -> None:
    """The literal rule (A40 iii): the re-thrown face is the new target; only the proposer's pair
    changes (A40 iv); the proposer now risks a Catastrophe."""
    c = act["contest"]
    neg = c["negotiation"]
    d = contest.die(c, neg["die"])
    roll = ctx.roll(f"{act['id']} negotiation re-throw of die {d['id']}")
    d["superseded_value"], d["value"], d["renegotiated"] = d["value"], roll.face, True
    p = contest.pair_in(c, neg["proposer"])
    p["state"] = {"kind": "ctrl", "side": neg["responder"], "target": roll.face, "die": d["id"]}
    act["participants"][neg["proposer"]]["negotiated"] = True
    c["negotiation"], c["stage"] = None, "wave"
    ctx.emit(
        "negotiation_rethrown",
        TrikusNegotiationRethrown(
            activity_id=act["id"],
            proposer=neg["proposer"],
            die_id=d["id"],
            old_value=d["superseded_value"],
            value=roll.face,
            dice=[roll.to_dict()],
            pair_state=dict(p["state"]),
        ),
    )
    boom.scan(ctx, act)
