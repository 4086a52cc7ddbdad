"""Exact success chances at TN 4 (seed 1.4–1.5: aces, the Wild Die) and the engine agreeing with them."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

import pytest

from service.dice.server import ServerDice
from service.rules.action_deck.rolls import Roller
from service.rules.action_deck.traits import RollSpec, roll_attempt

DICE = (4, 6, 8, 10, 12)


@lru_cache(maxsize=None)
def p_open_at_least(sides: int, k: int) -> Fraction:
    """P(an acing die totals >= k), from first principles: a face below the maximum stops the chain; the
    maximum adds itself and rolls again (seed 1.4 'Asy')."""
    if k <= 1:
        return Fraction(1)
    stop = Fraction(sum(1 for f in range(1, sides) if f >= k), sides)
    return stop + Fraction(1, sides) * p_open_at_least(sides, k - sides)


def p_success(sides: int, wild: bool, tn: int = 4) -> Fraction:
    """Trait die alone (an Extra), or the higher of trait die and d6 Wild Die (a Wild Card). A critical failure
    (both natural 1) is already inside 'both below the TN' whenever tn > 1."""
    miss = 1 - p_open_at_least(sides, tn)
    if not wild:
        return 1 - miss
    return 1 - miss * (1 - p_open_at_least(6, tn))


def enumerate_success(sides: int, wild: bool, tn: int = 4, depth: int = 4) -> Fraction:
    """The same by brute enumeration of ace chains up to `depth` dice (exact when tn <= depth * sides)."""

    def totals(s: int) -> dict[int, Fraction]:
        out: dict[int, Fraction] = {}

        def walk(total: int, p: Fraction, d: int) -> None:
            for f in range(1, s + 1):
                q = p / s
                if f == s and d < depth:
                    walk(total + f, q, d + 1)
                else:
                    out[total + f] = out.get(total + f, 0) + q

        walk(0, Fraction(1), 1)
        return out

    t = totals(sides)
    w = totals(6) if wild else {0: Fraction(1)}
    return sum((pt * pw for a, pt in t.items() for b, pw in w.items() if max(a, b) >= tn), Fraction(0))


EXPECTED = {  # (die, wild) -> exact chance at TN 4
    (4, False): Fraction(1, 4),
    (4, True): Fraction(5, 8),
    (6, False): Fraction(1, 2),
    (6, True): Fraction(3, 4),
    (8, False): Fraction(5, 8),
    (8, True): Fraction(13, 16),
    (10, False): Fraction(7, 10),
    (10, True): Fraction(17, 20),
    (12, False): Fraction(3, 4),
    (12, True): Fraction(7, 8),
}


@pytest.mark.parametrize("sides,wild", list(EXPECTED))
def test_trait_test_exact_chance_at_tn4(sides, wild):
    assert p_success(sides, wild) == EXPECTED[(sides, wild)] == enumerate_success(sides, wild)


def test_aces_matter_above_the_die_size():
    # A d4 reaches TN 8 only through aces: 4 then at least 4 → 1/4 · 1/4 + (4,4,…) chains.
    assert p_open_at_least(4, 8) == Fraction(1, 4) * p_open_at_least(4, 4)
    assert p_success(4, True, tn=8) == enumerate_success(4, True, tn=8)


N = 20_000


@pytest.mark.parametrize("sides,wild", list(EXPECTED))
def test_engine_trait_tests_agree_with_the_exact_chance(sides, wild):
    spec = RollSpec(sides=sides, wild_die=6 if wild else None, tn=4)
    hits = 0
    for _batch in range(N // 1000):
        roller = Roller(ServerDice())  # fresh sources keep the recorded dice small
        for _ in range(1000):
            hits += roll_attempt(roller, spec)["success"]
            roller.take()
    p = EXPECTED[(sides, wild)]
    se = math.sqrt(float(p) * (1 - float(p)) / N)
    assert abs(hits / N - float(p)) < 4 * se, (hits / N, float(p))
