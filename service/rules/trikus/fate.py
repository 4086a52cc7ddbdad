"""Dark tokens, turning to the dark side, death, and the promotion chain (spec 4.11, 4.15, A32–A36)."""

from __future__ import annotations

from typing import Any

from service.rules.trikus.constants import DARK_TOKENS_TO_TURN, NEXT_TIER, TIERS
from service.rules.trikus.context import Ctx
from service.rules.trikus.contest import leave
from service.rules.trikus.sheet import fresh_lines
from service.rules.trikus.events_model import (
    TrikusCharacterFate,
    TrikusCharacterPromoted,
    TrikusDarkTokenAdded,
    TrikusMasterConsequence,
    TrikusNewBeginnerDue,
    TrikusSuccessionQueued,
)


def add_dark_token(ctx: Ctx, cid: str, source: str) -> None:
    """Sources: a failed boosted test (L234), an escape (L324), a Sith artifact (L420)."""
    sheet = ctx.characters[cid]
    if sheet["status"] != "active":
        return
    tok = sheet["dark_tokens"]
    tok["active"] += 1
    tok["received_total"] += 1
    # A38 option: counting these events would give other players the count the view hides; the owner reads
    # it on the sheet.
    ctx.emit(
        "dark_token_added",
        TrikusDarkTokenAdded(
            character_id=cid, source=source, active=tok["active"], received_total=tok["received_total"]
        ),
        gm_only=ctx.options.hide_dark_counts_from_other_players,
    )
    if tok["active"] >= DARK_TOKENS_TO_TURN:
        turn_dark(ctx, cid, "three_dark_tokens")  # immediately (A36): "the GM did not manage" (L310)


def _forfeit(sheet: dict[str, Any]) -> None:
    """A character leaving play takes its resources with it (I3)."""
    sheet["morale_dice"] = 0
    for kind in ("light_tokens", "dark_tokens"):
        tok = sheet[kind]
        tok["forfeited_total"] += tok["active"]
        tok["active"] = 0


def turn_dark(ctx: Ctx, cid: str, reason: str) -> None:
    """L300, L212: the character becomes a GM character; the player starts a new Beginner."""
    sheet = ctx.characters[cid]
    sheet["status"], sheet["controller"] = "turned_dark", "gm"
    _forfeit(sheet)
    ctx.emit("character_turned_dark", TrikusCharacterFate(character_id=cid, tier=sheet["tier"], reason=reason))
    remove_from_activity(ctx, cid)
    succession(ctx, cid)


def kill(ctx: Ctx, cid: str, reason: str) -> None:
    """The Master's sacrifice (L208, L308) or a black-hole item (L416, A33): the only deaths."""
    sheet = ctx.characters[cid]
    sheet["status"] = "dead"
    _forfeit(sheet)
    ctx.emit("character_died", TrikusCharacterFate(character_id=cid, tier=sheet["tier"], reason=reason))
    remove_from_activity(ctx, cid)
    succession(ctx, cid)


def remove_from_activity(ctx: Ctx, cid: str) -> None:
    """A36: a character that leaves play mid-activity is removed with no further effects."""
    act = ctx.activity
    if act is None or cid not in act.get("participants", {}):
        return
    part = act["participants"][cid]
    if part["status"] in ("in", "active"):
        part["status"] = "removed"
    c = act.get("contest")
    if c is not None and c["stage"] != "resolved" and cid in c["unthrown"]:
        leave(c, cid, "removed")


def master_consequence(ctx: Ctx, act: dict[str, Any], victim: str) -> None:
    """L212–L214: in a powerful fight, a player losing the last die costs the party its Master:
    death if he took part (A31), the dark side if not. Once per combat (A32).

    The rule assumes one Master (L21). With several, the first in seat order pays (spec 3.3's tie-break), so
    the same moves give the same outcome in every campaign; the event warns when the party is not one per tier."""
    if act.get("master_consequence_applied"):
        return
    act["master_consequence_applied"] = True
    masters = [c for c in ctx.active_ids() if ctx.characters[c]["tier"] == "master"]
    master = masters[0] if masters else None
    ctx.emit(
        "master_consequence",
        TrikusMasterConsequence(
            activity_id=act["id"], victim=victim, master=master, masters=masters, warnings=composition_warnings(ctx)
        ),
    )
    if master is None:
        return  # no active Master: nothing more (A32)
    part = act["participants"].get(master)
    took_part = part is not None and part["status"] in ("active", "knocked_out")
    if took_part:
        kill(ctx, master, "sacrifice")  # L308
    else:
        turn_dark(ctx, master, "absent_from_powerful_fight")  # L212, L302


def composition_warnings(ctx: Ctx) -> list[str]:
    """Spec 3.3 (L21, A34): a party that is not one Beginner, one Advanced and one Master is allowed, with a
    warning, since rules written for one of each then pick among several or none."""
    counts = {t: sum(1 for c in ctx.active_ids() if ctx.characters[c]["tier"] == t) for t in TIERS}
    return [] if all(n == 1 for n in counts.values()) else ["party_not_one_per_tier"]


def succession(ctx: Ctx, lost: str) -> None:
    """Only tiers below the lost one move up (L300, L310, A35); the player makes a new Beginner (L300)."""
    tier = ctx.characters[lost]["tier"]
    pending = ctx.table["pending_changes"]
    pending[:] = [p for p in pending if p.get("character_id") != lost]
    counts = {t: sum(1 for c in ctx.active_ids() if ctx.characters[c]["tier"] == t) for t in TIERS}
    counts[tier] += 1
    standard = all(n == 1 for n in counts.values())
    # A34: outside a 1/1/1 party the chain needs the GM's confirmation, which start_session gives.
    confirm = not standard or ctx.options.promotions_apply == "next_session"
    below = TIERS[: TIERS.index(tier)]
    for cid in ctx.active_ids():
        cur = ctx.characters[cid]["tier"]
        if cur not in below:
            continue
        prev = next((p for p in pending if p.get("character_id") == cid), None)
        base = prev["to"] if prev else cur
        if prev is None:
            prev = {"kind": "promote", "character_id": cid, "from": cur}
            pending.append(prev)
        prev.update(to=NEXT_TIER[base], at_session_start=confirm)
    pending.append({"kind": "new_character", "replaces": lost, "tier": "beginner", "at_session_start": True})
    ctx.emit(
        "succession_queued",
        TrikusSuccessionQueued(
            lost=lost, lost_tier=tier, pending_changes=[dict(p) for p in pending], composition_standard=standard
        ),
    )


def apply_pending(ctx: Ctx, *, session_start: bool) -> None:
    """A34: fresh all-free lines at the new tier; sides to be rewritten (L246); morale, tokens, gear kept."""
    keep = []
    for change in ctx.table["pending_changes"]:
        if change["at_session_start"] and not session_start:
            keep.append(change)
            continue
        if change["kind"] == "new_character":
            ctx.emit("new_beginner_due", TrikusNewBeginnerDue(replaces=change["replaces"], tier="beginner"))
            continue
        sheet = ctx.characters.get(change["character_id"])
        if sheet is None or sheet["status"] != "active":
            continue
        sheet["tier"] = change["to"]
        sheet["lines"] = fresh_lines(change["to"])
        sheet["sides_pending"] = True
        ctx.emit(
            "character_promoted",
            TrikusCharacterPromoted(character_id=change["character_id"], from_=change["from"], to=change["to"]),
        )
    ctx.table["pending_changes"] = keep
