import pytest

from service.dice.factory import make_dice
from service.dice.server import ServerDice
from service.dice.table import TableDice
from service.dice.types import DiceError
from service.dice.verifiable import VerifiableDice, derive_face


def test_make_dice_server():
    assert isinstance(make_dice("server"), ServerDice)


def test_make_dice_verifiable_starts_at_the_counter():
    dice = make_dice("verifiable", seed="11" * 32, client_seed="t", start_counter=4)
    assert isinstance(dice, VerifiableDice)
    die = dice.roll(10)
    assert (die.seq, die.face) == (4, derive_face("11" * 32, "t", 4, 10)[0])


def test_make_dice_table_uses_the_given_faces():
    dice = make_dice("table", faces=[3, 5])
    assert isinstance(dice, TableDice)
    assert [dice.roll(6).face, dice.roll(6).face] == [3, 5]


def test_make_dice_table_without_faces_asks_for_dice():
    with pytest.raises(DiceError) as caught:
        make_dice("table").roll(10)
    assert caught.value.code == "dice_required"


@pytest.mark.parametrize("mode, kwargs", [("verifiable", {}), ("loaded", {})])
def test_make_dice_refuses_bad_configuration(mode, kwargs):
    with pytest.raises(ValueError):
        make_dice(mode, **kwargs)
