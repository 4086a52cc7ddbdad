import pytest

from service.dice.budget import Budget
from service.dice.expression import roll_expression
from service.dice.server import ServerDice
from service.dice.table import TableDice
from service.dice.types import DiceError
from service.dice.verifiable import VerifiableDice


def too_large(expr, dice=None, **kwargs):
    dice = dice or ServerDice()
    with pytest.raises(DiceError) as caught:
        roll_expression(expr, dice, **kwargs)
    assert (caught.value.code, caught.value.field) == ("expression_too_large", "expression")
    return caught.value, dice


@pytest.mark.parametrize(
    "expr, words",
    [
        ("1000000d1000", "at most 100 dice"),
        ("d100000", "at most 1000 sides"),
        ("1d1e1", "never stop"),
        ("1d6e>0", "never stop"),
        ("1d2e1e2", "never stop"),
        ("1d6rr<7", "never stop"),
        ("3d6rrl1", "never stop"),
        ("60d6 + 41d6", "101 dice"),
        ("1+" * 100 + "1", "at most 200 characters"),
    ],
)
def test_budget_refuses_before_any_die_is_thrown(expr, words):
    error, dice = too_large(expr)
    assert words in error.detail
    assert dice.rolled == []


def test_budget_refusal_leaves_the_verifiable_counter_untouched():
    dice = VerifiableDice("07" * 32, "t", start_counter=3)
    too_large("1d1e1", dice)
    assert dice.next_counter == 3


def test_explosions_stop_at_the_dice_budget():
    dice = TableDice([6] * 150)
    error, _ = too_large("1d6e6", dice)
    assert "more than 100 dice" in error.detail
    assert len(dice.rolled) == 100  # counted before throwing: not one die more


def test_rerolls_stop_at_the_dice_budget():
    dice = TableDice([1] * 150)
    too_large("1d6rr1", dice)
    assert len(dice.rolled) == 100


def test_exactly_the_budget_is_allowed():
    result = roll_expression("100d6", ServerDice())
    assert len(result.dice) == 100


def test_d1_exploding_on_a_face_it_cannot_show_is_fine():
    assert roll_expression("3d1e2", ServerDice()).total == 3


def test_a_custom_budget_applies():
    budget = Budget(max_length=10, max_sides=20, max_dice_per_term=5, max_dice=8)
    assert roll_expression("5d20", ServerDice(), budget=budget).total >= 5
    too_large("6d6", budget=budget)
    too_large("1d100", budget=budget)
    too_large("5d6+4d6", budget=budget)
    too_large("1d6 + 1d6 + 1", budget=budget)
