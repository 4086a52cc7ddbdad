from collections import Counter

import pytest

from service.dice.server import ServerDice


@pytest.mark.parametrize("sides", [1, 2, 6, 10, 20, 100])
def test_server_dice_stay_in_range_and_reach_every_face(sides):
    dice = ServerDice()
    faces = Counter(dice.roll(sides).face for _ in range(sides * 60))
    assert set(faces) == set(range(1, sides + 1))  # P(a face never shows) < 1e-40 even for d100


def test_server_dice_record_every_roll_with_its_source():
    dice = ServerDice()
    first = dice.roll(6, purpose="attack")
    second = dice.roll(10)
    assert dice.mode == "server"
    assert dice.rolled == [first, second]
    assert first.source == "server" and first.purpose == "attack" and first.seq is None


@pytest.mark.parametrize("sides", [0, -3, 2.5, True])
def test_server_dice_refuse_impossible_dice(sides):
    with pytest.raises(ValueError):
        ServerDice().roll(sides)
