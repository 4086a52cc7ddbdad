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


@pytest.mark.parametrize("sides", [256, 257, 1000])
def test_server_dice_wider_than_one_byte_stay_in_range_and_reach_both_ends(sides):
    dice = ServerDice()
    faces = {dice.roll(sides).face for _ in range(sides * 30)}
    assert min(faces) == 1 and max(faces) == sides and faces <= set(range(1, sides + 1))


def test_server_dice_are_uniform_where_a_byte_taken_mod_sides_would_not_be():
    """256 is no multiple of 6 or 10: bytes in the top partial stretch are redrawn, not folded onto low faces."""
    for sides in (6, 10):
        dice = ServerDice()
        n = sides * 4000
        counts = Counter(dice.roll(sides).face for _ in range(n))
        expected = n / sides
        chi2 = sum((counts[f] - expected) ** 2 / expected for f in range(1, sides + 1))
        assert chi2 < 40  # far past the 99.99th percentile for 9 degrees of freedom (about 33)


def test_two_server_dice_sources_never_share_random_bytes():
    a, b = ServerDice(), ServerDice()
    assert [a.roll(1000).face for _ in range(50)] != [b.roll(1000).face for _ in range(50)]
