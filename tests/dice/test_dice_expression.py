"""Every piece of d20 syntax we support, fed exact faces through TableDice."""

import json

import pytest

from service.dice.expression import parse_expression, roll_expression
from service.dice.table import TableDice
from service.dice.types import DiceError
from service.dice.verifiable import VerifiableDice


def roll(expr, *faces):
    dice = TableDice(faces)
    result = roll_expression(expr, dice)
    assert dice.unused == 0, "every face given should have been used"
    return result


@pytest.mark.parametrize(
    "expr, faces, total, rendered",
    [
        ("1d20", [13], 13, "1d20 (13) = 13"),
        ("d20", [13], 13, "1d20 (13) = 13"),
        ("2d6 + 3", [2, 5], 10, "2d6 (2, 5) + 3 = 10"),
        ("1d8 - 1d4", [3, 4], -1, "1d8 (3) - 1d4 (4) = -1"),
        ("2d6 * 2", [2, 5], 14, "2d6 (2, 5) * 2 = 14"),
        ("3d6 / 2", [2, 5, 6], 6, "3d6 (2, 5, 6) / 2 = 6"),
        ("-1d6 / 4", [3], 0, "-1d6 (3) / 4 = 0"),
        ("1d6 // 4", [6], 1, "1d6 (6) // 4 = 1"),
        ("1d6 % 4", [6], 2, "1d6 (6) % 4 = 2"),
        ("5", [], 5, "5 = 5"),
        ("1.5 * 3", [], 4, "1.5 * 3 = 4"),
        ("-(1d4 + 2)", [3], -5, "-(1d4 (3) + 2) = -5"),
        ("(1d6 + 2) * 3", [4], 18, "(1d6 (4) + 2) * 3 = 18"),
        ("1d20 >= 15", [15], 1, "1d20 (15) >= 15 = 1"),
        ("1d20 < 15", [15], 0, "1d20 (15) < 15 = 0"),
        ("1d20 + 5 [str]", [7], 12, "1d20 (7) + 5 [str] = 12"),
        ("0d6", [], 0, "0d6 () = 0"),
    ],
)
def test_arithmetic_constants_and_parentheses(expr, faces, total, rendered):
    result = roll(expr, *faces)
    assert (result.total, result.render()) == (total, rendered)


@pytest.mark.parametrize(
    "expr, faces, total, rendered",
    [
        ("4d6kh3", [6, 3, 1, 5], 14, "4d6kh3 (6, 3, ~~1~~, 5) = 14"),
        ("4d6kl1", [6, 3, 1, 5], 1, "4d6kl1 (~~6~~, ~~3~~, 1, ~~5~~) = 1"),
        ("4d6ph1", [6, 3, 1, 5], 9, "4d6ph1 (~~6~~, 3, 1, 5) = 9"),
        ("4d6pl1", [6, 3, 1, 5], 14, "4d6pl1 (6, 3, ~~1~~, 5) = 14"),
        ("2d20kh1", [4, 17], 17, "2d20kh1 (~~4~~, 17) = 17"),
        ("2d20kl1", [4, 17], 4, "2d20kl1 (4, ~~17~~) = 4"),
        ("3d6kh1", [5, 5, 2], 5, "3d6kh1 (5, ~~5~~, ~~2~~) = 5"),  # ties keep the earlier die
        ("4d6k>3", [6, 3, 1, 5], 11, "4d6k>3 (6, ~~3~~, ~~1~~, 5) = 11"),
        ("4d6p<3", [6, 3, 1, 5], 14, "4d6p<3 (6, 3, ~~1~~, 5) = 14"),
        ("4d6k5", [6, 5, 1, 5], 10, "4d6k5 (~~6~~, 5, ~~1~~, 5) = 10"),
        ("5d6kh1kl1", [2, 6, 4, 1, 3], 7, "5d6kh1kl1 (~~2~~, 6, ~~4~~, 1, ~~3~~) = 7"),
    ],
)
def test_keep_and_drop(expr, faces, total, rendered):
    result = roll(expr, *faces)
    assert (result.total, result.render()) == (total, rendered)


def test_keep_marks_each_die_kept_or_dropped_in_the_tree():
    tree = roll("4d6kh3", 6, 3, 1, 5).to_dict()["tree"]["roll"]
    assert [d["kept"] for d in tree["dice"]] == [True, True, False, True]
    assert tree["operations"] == "kh3" and tree["value"] == 14


@pytest.mark.parametrize(
    "expr, faces, total, rendered",
    [
        ("4d6e6", [6, 2, 3, 4, 6, 1], 22, "4d6e6 (6!, 2, 3, 4, 6!, 1) = 22"),
        ("1d10e10", [10, 10, 10, 3], 33, "1d10e10 (10!, 10!, 10!, 3) = 33"),
        ("1d6e6", [5], 5, "1d6e6 (5) = 5"),
        ("2d6e>4", [5, 2, 6, 1], 14, "2d6e>4 (5!, 2, 6!, 1) = 14"),
        ("4d6e6kh3", [6, 1, 2, 3, 4], 13, "4d6e6kh3 (6!, ~~1~~, ~~2~~, 3, 4) = 13"),
        ("2d6ra6", [6, 6, 6], 18, "2d6ra6 (6!, 6, 6) = 18"),  # explode at most once in all
    ],
)
def test_explosion_chains(expr, faces, total, rendered):
    result = roll(expr, *faces)
    assert (result.total, result.render()) == (total, rendered)


def test_explosion_chain_throws_are_in_order_with_their_purpose():
    result = roll("1d10e10", 10, 10, 3)
    assert [d.face for d in result.dice] == [10, 10, 3]
    assert [d.purpose for d in result.dice] == ["1d10e10", "1d10e10 explosion", "1d10e10 explosion"]
    faces = [f for die in result.to_dict()["tree"]["roll"]["dice"] for f in die["faces"]]
    assert [f["exploded"] for f in faces] == [True, True, False]


@pytest.mark.parametrize(
    "expr, faces, total, rendered",
    [
        ("1d20ro1", [1, 17], 17, "1d20ro1 (~~1~~, 17) = 17"),
        ("1d20ro1", [1, 1], 1, "1d20ro1 (~~1~~, 1) = 1"),  # once only
        ("2d6rr1", [1, 1, 1, 4, 5], 9, "2d6rr1 (~~1~~, ~~1~~, 5, ~~1~~, 4) = 9"),
        ("4d6rr<3", [1, 6, 2, 6, 3, 4], 19, "4d6rr<3 (~~1~~, 3, 6, ~~2~~, 4, 6) = 19"),
        ("2d20ro<3kh1", [2, 19, 20], 20, "2d20ro<3kh1 (~~2~~, 20, ~~19~~) = 20"),
    ],
)
def test_rerolls(expr, faces, total, rendered):
    result = roll(expr, *faces)
    assert (result.total, result.render()) == (total, rendered)


@pytest.mark.parametrize(
    "expr, faces, total, rendered",
    [
        ("1d6mi3", [1], 3, "1d6mi3 (1 -> 3) = 3"),
        ("1d6mi3", [5], 5, "1d6mi3 (5) = 5"),
        ("2d6ma4", [6, 2], 6, "2d6ma4 (6 -> 4, 2) = 6"),
        ("4d6mi2kh3", [1, 6, 1, 5], 13, "4d6mi2kh3 (1 -> 2, 6, ~~1 -> 2~~, 5) = 13"),
    ],
)
def test_minimum_and_maximum(expr, faces, total, rendered):
    result = roll(expr, *faces)
    assert (result.total, result.render()) == (total, rendered)


def test_minimum_keeps_the_thrown_face_in_the_log():
    result = roll("1d6mi3", 1)
    assert result.dice[0].face == 1
    face = result.to_dict()["tree"]["roll"]["dice"][0]["faces"][0]
    assert (face["face"], face["forced"], face["value"]) == (1, [3], 3)


@pytest.mark.parametrize(
    "expr, faces, total, rendered",
    [
        ("(1d6, 1d8)kh1", [3, 7], 7, "(~~1d6 (3)~~, 1d8 (7))kh1 = 7"),
        ("(1d6, 1d8, 4)kl1 + 1", [6, 7], 5, "(~~1d6 (6)~~, ~~1d8 (7)~~, 4)kl1 + 1 = 5"),
        ("(4d6)kh3", [6, 3, 1, 5], 14, "(4d6 (6, 3, ~~1~~, 5))kh3 = 14"),
        ("(1, 2, 3)ph1", [], 3, "(1, 2, ~~3~~)ph1 = 3"),
        ("(5,)", [], 5, "(5,) = 5"),
    ],
)
def test_sets_and_parenthesised_groups(expr, faces, total, rendered):
    result = roll(expr, *faces)
    assert (result.total, result.render()) == (total, rendered)


def test_result_lists_every_die_thrown_in_order():
    result = roll("2d6rr1 + 1d4e4", 1, 3, 5, 4, 2)
    assert [(d.sides, d.face) for d in result.dice] == [(6, 1), (6, 3), (6, 5), (4, 4), (4, 2)]
    assert all(d.source == "table" for d in result.dice)


def test_to_dict_is_json():
    result = roll("(1d6 + 1) / 2 + 1.25", 4)
    doc = json.loads(json.dumps(result.to_dict()))
    assert doc["total"] == result.total == 3
    assert doc["tree"]["roll"]["left"]["value"] == 2.5
    assert doc["render"] == "(1d6 (4) + 1) / 2 + 1.25 = 3"


def test_verifiable_dice_give_each_expression_die_a_seq():
    dice = VerifiableDice("42" * 32, "table", start_counter=10)
    result = roll_expression("3d6kh2", dice)
    assert [d.seq for d in result.dice] == [10, 11, 12]
    assert dice.next_counter == 13


def test_table_dice_running_out_says_what_is_needed():
    with pytest.raises(DiceError) as caught:
        roll_expression("1d6e6", TableDice([6]))
    assert caught.value.code == "dice_required" and "explosion" in caught.value.detail


def test_parse_is_cached_and_never_mutated():
    tree = parse_expression("4d6kh3e6ro1")
    before = str(tree)
    for _ in range(3):
        roll_expression("4d6kh3e6ro1", VerifiableDice("01" * 32, "x"))
    assert parse_expression("4d6kh3e6ro1") is tree and str(tree) == before


def test_spacing_does_not_alias_cached_expressions():
    # d20.parse caches on the text with spaces removed: after "12", "1 2" came back as 12.
    roll_expression("12", TableDice([]))
    with pytest.raises(DiceError) as caught:
        roll_expression("1 2", TableDice([]))
    assert caught.value.code == "expression_invalid"


@pytest.mark.parametrize(
    "expr, where",
    [
        ("", "position 1"),
        ("1d", "position 3"),
        ("4d6kh", "position 6"),
        ("1d6 +", "position 6"),
        ("(1d6", "position 5"),
        ("abc", "position 1"),
        ("1d6 fire", "position 5"),
        ("1d6)", "position 4"),
        ("2d6 e6", "position 5"),
    ],
)
def test_syntax_errors_are_expression_invalid_with_a_position(expr, where):
    with pytest.raises(DiceError) as caught:
        roll_expression(expr, TableDice([]))
    error = caught.value
    assert (error.code, error.field) == ("expression_invalid", "expression")
    assert where in error.detail


@pytest.mark.parametrize(
    "expr, words",
    [
        ("1d%", "d100"),
        ("1d0", "at least one side"),
        ("1d6mih3", "plain number"),
        ("1d6 / (2 - 2)", "divide by zero"),
        ("1d6 % 0", "divide by zero"),
        (42, "text"),
    ],
)
def test_unsupported_or_meaningless_expressions_are_invalid(expr, words):
    with pytest.raises(DiceError) as caught:
        roll_expression(expr, TableDice([3]))
    assert caught.value.code == "expression_invalid" and words in caught.value.detail


def test_a_checked_expression_is_parsed_and_checked_once_per_budget():
    from service.dice.budget import Budget

    tight = Budget(max_dice=3)
    assert parse_expression("3d6kh2") is parse_expression("3d6kh2")
    assert parse_expression("3d6kh2", tight) is parse_expression("3d6kh2", tight)
    with pytest.raises(DiceError) as refused:
        parse_expression("4d6", tight)  # checked against its own budget, not served from the default's entry
    assert refused.value.code == "expression_too_large"
    assert parse_expression("4d6") is not None
