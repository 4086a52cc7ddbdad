"""The numbers of Trikus (spec 3.1), in one place."""

from __future__ import annotations

from typing import Literal

Tier = Literal["beginner", "advanced", "master"]
TIERS: tuple[str, ...] = ("beginner", "advanced", "master")

# Dice per line, by tier (seed L41, L43–L58; spec 3.1 LINE_SHAPE).
LINE_SHAPE: dict[str, list[int]] = {"beginner": [1, 1, 1], "advanced": [2, 1], "master": [3]}
# Light / dark sides, by tier (seed L248–L252).
SIDE_COUNTS: dict[str, dict[str, int]] = {
    "beginner": {"light": 3, "dark": 1},
    "advanced": {"light": 2, "dark": 2},
    "master": {"light": 1, "dark": 3},
}
NEXT_TIER: dict[str, str] = {"beginner": "advanced", "advanced": "master", "master": "master"}

DIE = 10  # every die is a d10; the "0" face is 10 (spec 1)
DEFAULT_COMBAT_DIFFICULTY = 3  # L368
DEFENSE_BONUS_PER_DEFENDER = 2  # L382
DARK_TOKENS_TO_TURN = 3  # L300
BOOST_DICE = 2  # L230, L232
LOST_LINE_RESETS = 2  # a lost line returns at the 2nd party reset after the loss (L332, A16)
MAX_GM_POOL = 20  # an implementation limit, not a rule (A52)
MAX_RESET_LOOPS = 2  # spec 4.7: the reset loop is bounded (A15)

TRAIT_KINDS = (
    "offensive",
    "defensive",
    "helpful",
    "single_use",
    "battle_meditation",
    "unreliable",
    "black_hole",
    "renewable",
    "sith_artifact",
)
