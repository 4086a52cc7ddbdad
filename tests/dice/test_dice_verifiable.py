import hashlib
import hmac
import struct
from collections import Counter

import pytest

from service.dice.verifiable import VerifiableDice, commitment, derive_face, new_seed

ZERO_SEED = "00" * 32


def reference_face(seed_hex, client_seed, counter, sides):
    """The module docstring's algorithm, written again from the text alone."""
    key = bytes.fromhex(seed_hex)
    limit = 2**64 - (2**64 % sides)
    attempt = 0
    while True:
        message = (client_seed + ":" + str(counter) + ":" + str(attempt)).encode("utf-8")
        (x,) = struct.unpack(">Q", hmac.new(key, message, hashlib.sha256).digest()[:8])
        if x < limit:
            return x % sides + 1, attempt + 1
        attempt += 1


def chi_square(counts, sides, n):
    expected = n / sides
    return sum((counts[face] - expected) ** 2 / expected for face in range(1, sides + 1))


def test_new_seed_is_32_random_bytes_as_hex():
    seed = new_seed()
    assert len(bytes.fromhex(seed)) == 32 and seed == seed.lower()
    assert new_seed() != seed


def test_commitment_is_sha256_of_the_seed_bytes():
    assert commitment(ZERO_SEED) == "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
    assert commitment(ZERO_SEED) == hashlib.sha256(bytes(32)).hexdigest()


def test_known_answer_vector_matches_the_documented_algorithm():
    vector = [(0, 20, 14, 1), (1, 20, 14, 1), (2, 20, 6, 1)]
    for counter, sides, face, draws in vector:
        assert derive_face(ZERO_SEED, "table", counter, sides) == (face, draws)
        assert reference_face(ZERO_SEED, "table", counter, sides) == (face, draws)


def test_known_answer_vector_for_rejection_sampling():
    # 2**63 + 1 sides rejects about half of all draws, so the retry path is exercised.
    expected = (3094589869364614925, 3)
    assert derive_face(ZERO_SEED, "table", 3, 2**63 + 1) == expected
    assert reference_face(ZERO_SEED, "table", 3, 2**63 + 1) == expected


def test_reference_and_module_agree_on_many_dice():
    seed = "5a" * 32
    for counter in range(300):
        for sides in (1, 4, 6, 7, 10, 12, 20, 100, 2**63 + 1):
            assert derive_face(seed, "ünï:code", counter, sides) == reference_face(seed, "ünï:code", counter, sides)


def test_verifiable_dice_are_deterministic():
    a = VerifiableDice(ZERO_SEED, "table")
    b = VerifiableDice(ZERO_SEED, "table")
    assert [a.roll(10).face for _ in range(50)] == [b.roll(10).face for _ in range(50)]


def test_client_seed_changes_the_faces():
    a = VerifiableDice(ZERO_SEED, "table")
    b = VerifiableDice(ZERO_SEED, "other table")
    assert [a.roll(20).face for _ in range(20)] != [b.roll(20).face for _ in range(20)]


def test_each_die_consumes_exactly_one_counter_recorded_as_seq():
    dice = VerifiableDice(ZERO_SEED, "table", start_counter=7)
    rolls = [dice.roll(sides, purpose="p") for sides in (6, 2**63 + 1, 10, 2**63 + 1)]
    assert [r.seq for r in rolls] == [7, 8, 9, 10]
    assert dice.next_counter == 11
    assert dice.rolled == rolls and all(r.source == "verifiable" for r in rolls)


def test_a_later_start_counter_continues_the_same_sequence():
    fresh = VerifiableDice(ZERO_SEED, "table")
    faces = [fresh.roll(6).face for _ in range(10)]
    resumed = VerifiableDice(ZERO_SEED, "table", start_counter=5)
    assert [resumed.roll(6).face for _ in range(5)] == faces[5:]


def test_the_seed_stays_out_of_repr():
    seed = new_seed()
    assert seed not in repr(VerifiableDice(seed, "table"))


@pytest.mark.parametrize("sides, bound", [(6, 20.52), (10, 27.88)])  # chi-square, p = 0.001
def test_faces_are_uniform_chi_square(sides, bound):
    dice = VerifiableDice("a7" * 32, "uniformity")
    n = 60_000
    counts = Counter(dice.roll(sides).face for _ in range(n))
    assert set(counts) == set(range(1, sides + 1))
    assert chi_square(counts, sides, n) < bound


def test_rejection_sampling_removes_modulo_bias():
    # With sides = 3 * 2**62 a plain x % sides would put half of all draws in the lowest
    # third of the faces; with rejection each third gets one third.
    sides = 3 * 2**62
    n = 3000
    thirds = Counter((derive_face("c3" * 32, "bias", c, sides)[0] - 1) // 2**62 for c in range(n))
    assert chi_square(Counter({k + 1: v for k, v in thirds.items()}), 3, n) < 13.82  # df 2, p 0.001


@pytest.mark.parametrize("seed", ["zz" * 32, "00" * 31, ""])
def test_malformed_seeds_are_refused(seed):
    with pytest.raises(ValueError):
        VerifiableDice(seed, "table")


@pytest.mark.parametrize("sides", [0, -1, 2**64 + 1])
def test_impossible_dice_are_refused(sides):
    with pytest.raises(ValueError):
        derive_face(ZERO_SEED, "", 0, sides)
