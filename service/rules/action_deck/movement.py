"""Pure movement arithmetic (spec §4.23, §4.24, §4.26): segment costs, jumps, sustained running."""

from __future__ import annotations

from fractions import Fraction

SLOW_MODES = ("climb", "crawl", "swim")


def segment_cost(inches: Fraction, mode: str, difficult_terrain: bool, cost_mode: str) -> Fraction:
    """Every inch climbed, crawled, swum or through difficult terrain costs 2" (seed 1.3); difficult terrain
    does not affect crawling. B21: several conditions double once (max_doubling) or multiply (stacking)."""
    doubled_by = [mode in SLOW_MODES, difficult_terrain and mode != "crawl"]
    if cost_mode == "stacking":
        factor = 2 ** sum(doubled_by)
    else:
        factor = 2 if any(doubled_by) else 1
    return inches * factor


def jump_base(direction: str, run_up: Fraction) -> Fraction:
    """1" long or 0.5" high as a free action; doubled with a run-up of at least 2" (seed 1.3)."""
    base = Fraction(1) if direction == "long" else Fraction(1, 2)
    return base * 2 if run_up >= 2 else base


def jump_bonus(direction: str, success: bool, raises: int) -> Fraction:
    """Athletics as an action: +1" (+2" with a raise) long, half that up; added after doubling (B23)."""
    if not success:
        return Fraction(0)
    extra = Fraction(2 if raises >= 1 else 1)
    return extra if direction == "long" else extra / 2


def jump_max(direction: str, run_up: Fraction, athletics: bool) -> Fraction:
    return jump_base(direction, run_up) + (jump_bonus(direction, True, 1) if athletics else 0)


def sustained_run(pace: int, running_die: int, vigor_die: int) -> dict[str, int | Fraction]:
    """Outside combat: twice (Pace + the running die's maximum) for half the Vigor die in minutes (seed 1.3)."""
    return {"inches_per_turn": 2 * (pace + running_die), "minutes": Fraction(vigor_die, 2)}


def as_json(x: Fraction | int) -> int | float:
    """Inches are halves at most; keep whole numbers whole in the JSON state."""
    return int(x) if isinstance(x, int) or x.denominator == 1 else float(x)
