import json

import pytest

from service.dice.verifiable import VerifiableDice, commitment, new_seed, verify_rolls


@pytest.fixture
def session():
    """A revealed session as it would travel: plain JSON, no service objects."""
    seed = new_seed()
    dice = VerifiableDice(seed, "our table")
    for sides in (10, 10, 6, 20, 10, 4):
        dice.roll(sides)
    doc = {
        "seed": seed,
        "commitment": commitment(seed),
        "client_seed": "our table",
        "rolls": [{"seq": r.seq, "sides": r.sides, "face": r.face} for r in dice.rolled],
    }
    return json.loads(json.dumps(doc))


def check(doc):
    return verify_rolls(doc["seed"], doc["commitment"], doc["client_seed"], doc["rolls"])


def test_an_honest_session_verifies(session):
    report = check(session)
    assert report.ok and report.commitment_ok
    assert report.count == 6 and report.mismatches == [] and report.gaps == []


def test_verify_detects_a_tampered_face(session):
    roll = session["rolls"][3]
    true_face = roll["face"]
    roll["face"] = true_face % 20 + 1
    report = check(session)
    assert not report.ok and report.commitment_ok
    assert [(m.seq, m.face, m.expected) for m in report.mismatches] == [(3, roll["face"], true_face)]


def test_verify_detects_a_gap(session):
    del session["rolls"][2]
    del session["rolls"][3]
    report = check(session)
    assert not report.ok and report.mismatches == []
    assert report.gaps == [2, 4]


def test_verify_detects_a_bad_commitment(session):
    session["commitment"] = commitment(new_seed())
    report = check(session)
    assert not report.ok and not report.commitment_ok and report.mismatches == []


def test_verify_detects_a_counter_used_twice(session):
    session["rolls"].append(dict(session["rolls"][1]))
    report = check(session)
    assert not report.ok and report.duplicates == [1]


def test_verify_accepts_rolls_in_any_order(session):
    session["rolls"].reverse()
    assert check(session).ok


def test_verify_lists_a_huge_gap_without_exhausting_memory(session):
    session["rolls"].append({"seq": 10**12, "sides": 6, "face": 1})
    report = check(session)
    assert report.gaps_truncated and len(report.gaps) == 10_000 and report.gaps[0] == 6


@pytest.mark.parametrize(
    "bad",
    [{"seq": -1, "sides": 6, "face": 1}, {"sides": 6, "face": 1}, {"seq": 0, "sides": "6", "face": 1}, "not a roll"],
)
def test_verify_refuses_malformed_entries(session, bad):
    session["rolls"].append(bad)
    with pytest.raises(ValueError):
        check(session)
