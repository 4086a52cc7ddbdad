"""Pure trait-test resolution (spec §4.2–§4.6): one attempt, critical failures, Wild Die, raises, 'better'.

No state here: the engine (checks.py) builds a RollSpec from the sheet, the turn and the options, and
the statistical test drives `roll_attempt` directly with server dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from service.rules.action_deck.rolls import Roller


@dataclass(frozen=True)
class RollSpec:
    sides: int  # trait die, or the unskilled d4 (§4.5)
    die_bonus: int = 0  # d12+N campaigns only (§3.5 Die descriptor)
    dice_count: int = 1  # RoF / Frenzy (§4.3)
    wild_die: int | None = 6  # None for Extras; a group test rolls one (§4.8)
    modifier: int = 0  # every modifier summed: GM, Joker, multi-action, running, unskilled
    tn: int = 4
    raise_step: int = 4
    extra_crit_check: bool = False  # an Extra's single natural 1 gets the d6 check (B28, resolved by the caller)
    natural_one_fails: bool = True  # extra_natural_one_policy == always_fail (B28)
    counts_wild_die: bool = False  # multi_die_crit_counts_wild_die (B29)
    extra_needs_d6: bool = False  # multi_die_extra_needs_d6 (B29)


def roll_attempt(roller: Roller, spec: RollSpec, purpose: str = "trait_test") -> dict[str, Any]:
    """All dice of one attempt: the trait dice, one Wild Die per action (seed 1.5), any crit-check d6."""
    trait = [roller.open(spec.sides, purpose) for _ in range(spec.dice_count)]
    wild = roller.open(spec.wild_die, f"{purpose}:wild_die") if spec.wild_die else None
    crit, check = critical_failure(roller, spec, trait, wild, purpose)
    attempt = {
        "trait_dice": trait,
        "wild_die": wild,
        "crit_check_die": check,
        "critical_failure": crit,
        "substitution": default_substitution(spec, trait, wild),
    }
    return evaluate(spec, attempt)


def critical_failure(
    roller: Roller, spec: RollSpec, trait: list[dict], wild: dict | None, purpose: str
) -> tuple[bool, int | None]:
    """§4.4 exactly. Only the first face of a die counts as its natural 1 (an aced 8,8,1 is no 1)."""
    n = len(trait)
    if n == 1:
        if wild is not None:  # Wild Card: 1 on the trait die and 1 on the Wild Die
            return trait[0]["natural_one"] and wild["natural_one"], None
        if not trait[0]["natural_one"] or not spec.extra_crit_check:
            return False, None
        check = roller.plain(6, f"{purpose}:crit_check")  # seed 1.4 'rzuć k6. Wynik 1 oznacza Katastrofę'
        return check == 1, check
    ones = sum(1 for t in trait if t["natural_one"])
    use_wild = spec.counts_wild_die and wild is not None
    counted = ones + (1 if use_wild and wild is not None and wild["natural_one"] else 0)
    majority = counted * 2 > n + (1 if use_wild else 0)  # "więcej niż połowie kostek"
    if wild is not None:
        return majority and wild["natural_one"], None
    if spec.extra_needs_d6 and majority:
        check = roller.plain(6, f"{purpose}:crit_check")
        return check == 1, check
    return majority, None


def default_substitution(spec: RollSpec, trait: list[dict], wild: dict | None) -> int | None:
    """Server default (§4.3, B27): the Wild Die replaces the lowest trait die it beats; with one die this is
    'take the higher' (seed 1.5)."""
    if wild is None:
        return None
    raws = [t["total"] + spec.die_bonus for t in trait]
    lowest = min(range(len(raws)), key=lambda i: raws[i])
    return lowest if wild["total"] > raws[lowest] else None


def evaluate(spec: RollSpec, attempt: dict[str, Any]) -> dict[str, Any]:
    """Results per die (B26: the full modifier applies to each), after the chosen substitution."""
    trait, wild, crit = attempt["trait_dice"], attempt["wild_die"], attempt["critical_failure"]
    results = []
    for i, t in enumerate(trait):
        from_wild = attempt["substitution"] == i
        raw = wild["total"] if from_wild else t["total"] + spec.die_bonus
        total = raw + spec.modifier
        success = total >= spec.tn and not crit
        if wild is None and t["natural_one"] and spec.natural_one_fails:
            success = False  # an Extra's 1 is "zwykła porażka" whatever the modifiers (B28)
        raises = (total - spec.tn) // spec.raise_step if success else 0
        results.append({"raw": raw, "total": total, "success": success, "raises": raises, "from_wild_die": from_wild})
    attempt["results"] = results
    attempt["successes"] = sum(1 for r in results if r["success"])
    attempt["raises"] = sum(r["raises"] for r in results)
    attempt["total"] = max(r["total"] for r in results)
    attempt["success"] = attempt["successes"] > 0
    return attempt


def better(kept: dict[str, Any], new: dict[str, Any]) -> bool:
    """Does the new attempt replace the kept one (§4.6)? One die: a higher total (ties keep the old);
    several dice: more successes, then more raises (B30: whole attempts, never mixed)."""
    if len(kept["trait_dice"]) == 1:
        return new["total"] > kept["total"]
    return (new["successes"], new["raises"]) > (kept["successes"], kept["raises"])


def roll_damage(roller: Roller, dice: list[int], purpose: str = "damage") -> dict[str, Any]:
    """Damage dice ace too (seed 1.4 'testy cech i rzuty na obrażenia są otwarte')."""
    rolled = [roller.open(s, purpose) for s in dice]
    return {"dice": rolled, "sum": sum(r["total"] for r in rolled)}
