"""Spec 4.2 probability table and the ladder arithmetic, enumerated through the engine."""

from __future__ import annotations

from fractions import Fraction

import pytest

from service.rules.stepdice.ladder import band_for, classify, step_up
from stepdice_support import Table, one

# Spec 4.2: chance of at least a success at TN 4 / 6 / 8 / 12, with exceptional_requires_tn off.
TABLE = {
    "d6": ("3/6", "1/6", "1/6", "1/6"),
    "d8": ("5/8", "3/8", "1/8", "1/8"),
    "d10": ("7/10", "5/10", "3/10", "1/10"),
    "d12": ("9/12", "7/12", "5/12", "1/12"),
    "d20": ("17/20", "15/20", "13/20", "9/20"),
}
MAX_FACE_ONLY = {("d6", 8), ("d6", 12), ("d8", 12), ("d10", 12)}
FACES = {"d6": 6, "d8": 8, "d10": 10, "d12": 12, "d20": 20}


def _outcomes(die: str, tn: int, requires_tn: bool) -> list[str]:
    """Every face of the die through the engine, one test per face."""
    out = []
    for face in range(1, FACES[die] + 1):
        t = Table(exceptional_requires_tn=requires_tn)
        t.pc("w", "warrior")["dice"]["strength"] = die
        ev = t.do({"type": "test", "character_id": "w", "attribute": "strength", "base_tn": tn}, [face])
        out.append(one(ev, "test_resolved")["outcome"])
    return out


@pytest.mark.parametrize("requires_tn", [False, True], ids=["default", "exceptional_requires_tn"])
@pytest.mark.parametrize("die", list(TABLE))
def test_probability_table_spec_4_2(die, requires_tn):
    faces = FACES[die]
    for tn, cell in zip((4, 6, 8, 12), TABLE[die]):
        outcomes = _outcomes(die, tn, requires_tn)
        zeroed = requires_tn and (die, tn) in MAX_FACE_ONLY
        hits = sum(o in ("success", "exceptional_success") for o in outcomes)
        assert Fraction(hits, faces) == (0 if zeroed else Fraction(cell)), (die, tn)
        assert Fraction(outcomes.count("exceptional_success"), faces) == (0 if zeroed else Fraction(1, faces))
        assert Fraction(outcomes.count("failure_complication"), faces) == Fraction(1, faces)


def test_classify_natural_one_beats_near_certain():
    assert classify(1, 20, "near_certain", None) == "failure_complication"
    assert classify(2, 20, "near_certain", None) == "success"


def test_classify_near_impossible_only_max_face():
    assert [classify(r, 10, "near_impossible", None) for r in (2, 9, 10)] == [
        "failure",
        "failure",
        "exceptional_success",
    ]
    assert classify(10, 10, "near_impossible", None, exceptional_requires_tn=True) == "failure"


def test_steps_move_by_ladder_index_not_by_two():
    assert band_for(12, -1) == ("normal", 8)  # §5.9 B: one step, not 12 → 10
    assert band_for(4, 3) == ("normal", 12)
    assert band_for(6, -2) == ("near_certain", None)
    assert band_for(8, 2) == ("near_impossible", None)


def test_die_chain_ends_at_d20():
    assert [step_up(d) for d in ("d6", "d8", "d10", "d12", "d20")] == ["d8", "d10", "d12", "d20", None]
