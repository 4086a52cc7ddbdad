"""Die sizes, the TN ladder, bands and outcome tiers: the arithmetic of one test (spec 3.1, 4.2, 4.3, 4.15)."""

from __future__ import annotations

DICE = ("d6", "d8", "d10", "d12", "d20")
FACES = {"d6": 6, "d8": 8, "d10": 10, "d12": 12, "d20": 20}
ATTRIBUTES = ("strength", "dexterity", "magic")

TN_LADDER = (4, 6, 8, 12)
TN_LABEL = {4: "easy", 6: "normal", 8: "hard", 12: "heroic"}

NORMAL, NEAR_CERTAIN, NEAR_IMPOSSIBLE = "normal", "near_certain", "near_impossible"

FAILURE_COMPLICATION = "failure_complication"
FAILURE = "failure"
SUCCESS = "success"
EXCEPTIONAL = "exceptional_success"
FAILED = frozenset({FAILURE_COMPLICATION, FAILURE})

# d6-only variant (seed §9): proficiency levels replace die sizes.
PROFICIENCIES = ("unskilled", "novice", "trained", "master")
THRESHOLD = {"master": 3, "trained": 4, "novice": 5, "unskilled": 6}
TN_OFFSET = {4: -1, 6: 0, 8: 1, 12: 2}  # easy/normal/hard/heroic as threshold steps (§9.2, §9.4)
MIN_THRESHOLD, MAX_THRESHOLD = 2, 6  # "minimalnie 2+, maksymalnie 6" (§9.2)
# 7-A41: equal chance at Normal difficulty (d6 at TN 6 = 1/6 = 6+, d10 at TN 6 = 1/2 = 4+).
PROFICIENCY_FOR_DIE = {"d6": "unskilled", "d8": "novice", "d10": "trained", "d12": "master", "d20": "master"}


def step_up(die: str) -> str | None:
    """The next die size, or None above d20: the chain ends there (seed L160, 7-A9)."""
    i = DICE.index(die) + 1
    return DICE[i] if i < len(DICE) else None


def step_proficiency(level: str) -> str | None:
    i = PROFICIENCIES.index(level) + 1
    return PROFICIENCIES[i] if i < len(PROFICIENCIES) else None


def band_for(base_tn: int, net_steps: int) -> tuple[str, int | None]:
    """Steps move by ladder index, not by ±2 (§3.5; §5.9 B moves 12 → 8 as one step)."""
    idx = TN_LADDER.index(base_tn) + net_steps
    if idx < 0:
        return NEAR_CERTAIN, None
    if idx >= len(TN_LADDER):
        return NEAR_IMPOSSIBLE, None
    return NORMAL, TN_LADDER[idx]


def classify(roll: int, faces: int, band: str, tn: int | None, *, exceptional_requires_tn: bool = False) -> str:
    if roll == 1:
        return FAILURE_COMPLICATION  # "nawet gdy TN jest niskie" (L133)
    if roll == faces:
        if exceptional_requires_tn and (band == NEAR_IMPOSSIBLE or (band == NORMAL and tn is not None and roll < tn)):
            return FAILURE
        return EXCEPTIONAL
    if band == NEAR_CERTAIN:
        return SUCCESS  # 7-A7: only a 1 fails
    if band == NEAR_IMPOSSIBLE:
        return FAILURE  # 7-A7: only the maximum face succeeds
    if tn is None:
        raise ValueError(f"band {band} is judged against a TN, and none was given")
    return SUCCESS if roll >= tn else FAILURE


def variant_band(level: str, base_tn: int, net_steps: int) -> tuple[str, int, int]:
    """(band, raw threshold, clamped threshold). The raw value keeps refuse/skip_roll meaningful (4.15)."""
    raw = THRESHOLD[level] + TN_OFFSET[base_tn] + net_steps
    band = NEAR_CERTAIN if raw < MIN_THRESHOLD else NEAR_IMPOSSIBLE if raw > MAX_THRESHOLD else NORMAL
    return band, raw, min(MAX_THRESHOLD, max(MIN_THRESHOLD, raw))


def classify_d6(roll: int, threshold: int, *, exceptional_on_6: bool = True) -> str:
    if roll == 1:
        return FAILURE_COMPLICATION  # 7-A42; the clamp keeps every threshold ≥ 2
    if roll == 6 and exceptional_on_6:
        return EXCEPTIONAL
    return SUCCESS if roll >= threshold else FAILURE
