"""Every expression the grammar accepts or refuses is rolled or refused as a player's error (expression_invalid,
expression_too_large), never a crash; what rolls can be written to the log and read back exactly by any JSON
client. Generated expressions: numbers of any size, deep nesting, every operator (expression_strategies.py)."""

from __future__ import annotations

import pytest
from expression_strategies import deep, expressions
from hypothesis import example, given, settings
from property_examples import examples

from service.dice.budget import DEFAULT_BUDGET
from service.dice.expression import roll_expression
from service.dice.server import ServerDice
from service.dice.types import DiceError
from service.store.records.db import JSON_CODEC

PLAYER_ERRORS = {"expression_invalid", "expression_too_large"}
LIMIT = DEFAULT_BUDGET.max_number


def numbers_in(value):
    if isinstance(value, dict):
        for item in value.values():
            yield from numbers_in(item)
    elif isinstance(value, list):
        for item in value:
            yield from numbers_in(item)
    elif isinstance(value, int | float) and not isinstance(value, bool):
        yield value


def rolled_or_refused(expression: str) -> dict | None:
    try:
        result = roll_expression(expression, ServerDice())
    except DiceError as refusal:
        assert refusal.code in PLAYER_ERRORS and refusal.detail, (expression, refusal.code, refusal.detail)
        return None
    tree = result.to_dict()
    JSON_CODEC["json_serializer"](tree)  # what the event log writes: the 200-digit number failed here
    assert all(abs(n) <= LIMIT for n in numbers_in(tree)), expression
    return tree


@settings(max_examples=examples(400), deadline=None)
@given(expression=expressions)
@example("9" * 200)
@example("1/" + "9" * 100)
@example("9" * 66 + "*" + "9" * 66 + "*" + "9" * 66)
@example("9" * 190 + ".0")
@example("1d6mi" + "9" * 30)
@example("(" * 99 + "1" + ")" * 99)
def test_every_generated_expression_rolls_or_is_refused_as_the_players_error(expression):
    rolled_or_refused(expression)


@settings(max_examples=examples(100), deadline=None)
@given(expression=deep)
def test_nesting_as_deep_as_the_length_allows_rolls_or_is_refused(expression):
    rolled_or_refused(expression)


@pytest.mark.parametrize(
    "expression", ["9" * 200, "1/" + "9" * 100, "9" * 100 + ".5", "1d6mi" + "9" * 20, "99999999 * 99999999 * 99999999"]
)
def test_a_number_past_what_json_clients_read_exactly_is_too_large(expression):
    with pytest.raises(DiceError) as info:
        roll_expression(expression, ServerDice())
    assert info.value.code == "expression_too_large" and str(LIMIT) in info.value.detail


@pytest.mark.parametrize(
    "expression, total",
    [
        (str(LIMIT), LIMIT),
        (f"-{LIMIT}", -LIMIT),
        ("1.99999999999", 1),
        ("1 / 3 * 3", 1),
        ("94906265 * 94906265", 94906265**2),
    ],
)
def test_numbers_up_to_the_largest_exact_one_roll(expression, total):
    assert roll_expression(expression, ServerDice()).total == total
