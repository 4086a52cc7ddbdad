"""A roll never fails because of a face it threw, except past the dice budget: every division that could fail is
refused from the text, before the first die (service/dice/bounds.py)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from property_examples import examples

from service.dice.bounds import check_divisions
from service.dice.budget import DEFAULT_BUDGET
from service.dice.expression import parse_expression, roll_expression
from service.dice.server import ServerDice
from service.dice.table import TableDice
from service.dice.types import DiceError


@pytest.mark.parametrize(
    "expression",
    [
        "1/((1d20-1)//10)",
        "1d20 / (1d6 - 1)",
        "1d20 % (1d6 - 3)",
        "1 // (1d6 < 4)",
        "1 / (1d4 - 1d4)",
        "10 / (2d6kh1 - 1)",
        "1 / (1d6ma2 - 1)",
    ],
)
def test_a_divisor_that_may_be_zero_is_refused_before_any_die(expression):
    with pytest.raises(DiceError) as info:
        roll_expression(expression, TableDice([]))  # no faces at all: any die drawn would be dice_required
    assert info.value.code == "expression_invalid" and "can be zero" in info.value.detail


@pytest.mark.parametrize("expression", ["1/0", "1d20 + 1/(2-2)", "1d6 % 0", "1 / 0d6", "1 / (1d6 == 7)"])
def test_a_divisor_that_is_always_zero_is_refused_before_any_die(expression):
    with pytest.raises(DiceError) as info:
        roll_expression(expression, TableDice([]))
    assert info.value.code == "expression_invalid" and "cannot divide by zero" in info.value.detail


@pytest.mark.parametrize(
    "expression, faces, total",
    [
        ("10 / 1d6", [4], 2),
        ("1d20 % 1d6", [17, 5], 2),
        ("1d6 / (1d6 > 0)", [3, 1], 3),
        ("20 // (1d6mi2 - 1)", [1], 20),
        ("1d8 / (1d6 - 7)", [8, 6], -8),
    ],
)
def test_a_divisor_that_can_never_be_zero_rolls(expression, faces, total):
    assert roll_expression(expression, TableDice(faces)).total == total


def test_the_refusal_names_the_range_it_found():
    with pytest.raises(DiceError) as info:
        parse_expression("1/((1d20-1)//10)")
    assert "ranges from 0 to 1" in info.value.detail


# ----- the property: the range is sound, so what passes the text check only fails past the budget -----

LEAVES = st.one_of(
    st.integers(0, 12).map(str),
    st.sampled_from(["1.5", "0.5"]),
    st.builds(
        lambda n, x, op: f"{n}d{x}{op}",
        st.integers(0, 4),
        st.sampled_from([1, 2, 4, 6, 20]),
        st.sampled_from(["", "kh1", "kl1", "p1", "mi2", "ma3", "rr1", "ro1", "ra6", "e6", "kh2e20"]),
    ),
)


def _grow(children):
    return st.one_of(
        st.builds(
            lambda a, op, b: f"{a} {op} {b}",
            children,
            st.sampled_from(["+", "-", "*", "/", "//", "%", "<", ">", "==", "!=", "<=", ">="]),
            children,
        ),
        st.builds(lambda a: f"-{a}", children),
        st.builds(lambda a: f"({a})", children),
        st.builds(lambda a, b, op: f"({a}, {b}){op}", children, children, st.sampled_from(["", "kh1", "kl1", "p1"])),
    )


EXPRESSIONS = st.recursive(LEAVES, _grow, max_leaves=6)


@settings(max_examples=examples(400), deadline=None)
@given(expression=EXPRESSIONS)
def test_a_checked_expression_fails_only_past_the_budget_and_stays_in_its_range(expression):
    try:
        tree = parse_expression(expression)
    except DiceError:
        return  # refused from the text: nothing was drawn
    lo, hi = check_divisions(tree, DEFAULT_BUDGET)
    try:
        result = roll_expression(expression, ServerDice())
    except DiceError as exc:
        assert exc.code == "expression_too_large", (expression, exc.detail)
        return
    assert lo <= result.tree.number <= hi, (expression, lo, hi, result.render())
