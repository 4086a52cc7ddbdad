"""Verifiable dice: commit–reveal, so the table can check every die after the session.

Before play the service publishes `commitment(seed)`; the table may then add a client seed of
its own, so the service cannot have chosen a seed that favours anyone. When the session closes
the seed is revealed and anyone can recompute every die with nothing but this text.

The algorithm, exactly
---------------------

seed
    32 bytes from a cryptographic RNG, written as 64 lowercase hexadecimal characters.
    `seed_bytes` is the 32 bytes the hex text decodes to (not the hex text itself).

commitment
    lowercase hex of SHA-256(seed_bytes)  — 64 characters.

client seed
    any Unicode string chosen by the table ("" when the table adds none). It is used as-is,
    encoded as UTF-8, with no trimming or normalisation.

counter
    every die consumes exactly one counter value: 0, 1, 2, ... in the order the dice were
    thrown (a session may start at a later value). The log records each die's counter as
    `seq`, so a die that was thrown and not shown leaves a gap.

face of the die with counter `c` and `sides` sides (an integer, 1 <= sides <= 2**64)
    limit = 2**64 - (2**64 mod sides)      # the largest multiple of `sides` that is <= 2**64
    for attempt = 0, 1, 2, ...:
        msg    = UTF-8 bytes of  client_seed + ":" + decimal(c) + ":" + decimal(attempt)
                 (decimal() is the base-10 ASCII form, no sign, no leading zeros, "0" for zero)
        digest = HMAC-SHA256(key = seed_bytes, message = msg)          # 32 bytes
        x      = the first 8 bytes of digest read as an unsigned big-endian 64-bit integer
        if x < limit:
            face = (x mod sides) + 1                                    # 1 .. sides
            stop
        # otherwise x fell in the short top slice that would bias the low faces: draw again
    `draws` = attempt + 1, the number of HMACs computed for this die.

Rejecting x >= limit is what removes modulo bias: every face then has exactly limit/sides
64-bit values mapping to it. For the dice of tabletop play a rejection happens with
probability below 2**-54, so in practice each die costs one HMAC; the loop exists so that
the mapping is exactly uniform, and the retries stay inside the die's own counter value so
the counter still counts dice, not HMACs.

Test vectors (checked by tests/dice/test_dice_verifiable.py):
    seed        = "00" * 32   (64 zero characters: 32 zero bytes)
    commitment  = 66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925
    client_seed = "table", sides = 20:  counter 0 -> 14,  counter 1 -> 14,  counter 2 -> 6
                                        (one draw each)
    client_seed = "table", sides = 2**63 + 1 (half of all x are rejected), counter 3
                -> face 3094589869364614925 after 3 draws (attempts 0 and 1 rejected)
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import asdict, dataclass, field

from service.dice.types import DiceMode, DieRoll, DieVisibility

_SPACE = 1 << 64

# The name clients see for the algorithm above; a change to it gets a new name.
ALGORITHM = "rulekeeper-hmac-sha256-v1"


def new_seed() -> str:
    return secrets.token_hex(32)


def _seed_bytes(seed: str) -> bytes:
    try:
        raw = bytes.fromhex(seed)
    except (TypeError, ValueError):
        raise ValueError("the seed must be hexadecimal text") from None
    if len(raw) != 32:
        raise ValueError(f"the seed must be 32 bytes (64 hex characters), got {len(raw)} bytes")
    return raw


def commitment(seed: str) -> str:
    """sha256(seed_bytes) as lowercase hex; published before the first die is thrown."""
    return hashlib.sha256(_seed_bytes(seed)).hexdigest()


def derive_face(seed: str, client_seed: str, counter: int, sides: int) -> tuple[int, int]:
    """The face of die number `counter`, and how many HMAC draws it took (see module doc)."""
    if not isinstance(sides, int) or isinstance(sides, bool) or not 1 <= sides <= _SPACE:
        raise ValueError(f"sides must be a whole number from 1 to 2**64, got {sides!r}")
    if not isinstance(counter, int) or isinstance(counter, bool) or counter < 0:
        raise ValueError(f"counter must be a whole number >= 0, got {counter!r}")
    key = _seed_bytes(seed)
    limit = _SPACE - (_SPACE % sides)
    attempt = 0
    while True:
        msg = f"{client_seed}:{counter}:{attempt}".encode()
        x = int.from_bytes(hmac.new(key, msg, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % sides + 1, attempt + 1
        attempt += 1


class VerifiableDice:
    """A dice source whose every face follows from (seed, client seed, counter)."""

    mode: DiceMode = "verifiable"

    def __init__(self, seed: str, client_seed: str = "", start_counter: int = 0) -> None:
        _seed_bytes(seed)  # fail at construction, not at the first die
        if start_counter < 0:
            raise ValueError("start_counter must be >= 0")
        self._seed = seed
        self.client_seed = client_seed
        self._counter = start_counter
        self._rolled: list[DieRoll] = []

    def __repr__(self) -> str:
        # The seed is the secret until the session closes: keep it out of logs and tracebacks.
        return f"VerifiableDice(client_seed={self.client_seed!r}, next_counter={self._counter})"

    def roll(self, sides: int, *, purpose: str = "", visibility: DieVisibility = "all") -> DieRoll:
        face, _ = derive_face(self._seed, self.client_seed, self._counter, sides)
        die = DieRoll(
            sides=sides, face=face, source="verifiable", seq=self._counter, purpose=purpose, visibility=visibility
        )
        self._counter += 1
        self._rolled.append(die)
        return die

    @property
    def next_counter(self) -> int:
        return self._counter

    @property
    def commitment(self) -> str:
        return commitment(self._seed)

    @property
    def rolled(self) -> list[DieRoll]:
        return list(self._rolled)


# ----- verification: needs nothing but the revealed document -----

MAX_GAPS_LISTED = 10_000  # a document claiming seq 10**12 must not make the verifier eat memory


@dataclass(frozen=True)
class Mismatch:
    seq: int
    sides: int
    face: int
    expected: int


@dataclass
class VerificationReport:
    ok: bool
    commitment_ok: bool
    mismatches: list[Mismatch] = field(default_factory=list)
    gaps: list[int] = field(default_factory=list)
    count: int = 0
    duplicates: list[int] = field(default_factory=list)  # a seq used twice is a hidden reroll
    gaps_truncated: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


def _whole(entry: dict, key: str, index: int, minimum: int) -> int:
    value = entry.get(key) if isinstance(entry, dict) else None
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum:
        raise ValueError(f"rolls[{index}].{key} must be a whole number >= {minimum}, got {value!r}")
    return value


_commitment_of = commitment  # the parameter below is named `commitment`, as in the documents


def verify_rolls(seed: str, commitment: str, client_seed: str, rolls: list[dict]) -> VerificationReport:
    """Recompute every revealed die; report bad faces, missing counters and a bad commitment.

    `gaps` are the seq numbers from 0 to the largest seq given that no roll carries (listed up
    to MAX_GAPS_LISTED); `duplicates` are seqs given more than once. The commitment is compared
    ignoring case and surrounding spaces. `ok` means: commitment matches, no mismatch, no gap,
    no duplicate.

    Raises ValueError when the document itself is malformed (not hex, a roll without seq...),
    which is a different thing from a document that is well formed and wrong.
    """
    commitment_ok = isinstance(commitment, str) and hmac.compare_digest(
        _commitment_of(seed), commitment.strip().lower()
    )
    mismatches: list[Mismatch] = []
    seen: set[int] = set()
    duplicates: list[int] = []
    for i, entry in enumerate(rolls):
        seq = _whole(entry, "seq", i, 0)
        sides = _whole(entry, "sides", i, 1)
        face = _whole(entry, "face", i, 0)
        if seq in seen:
            duplicates.append(seq)
        seen.add(seq)
        expected, _ = derive_face(seed, client_seed, seq, sides)
        if face != expected:
            mismatches.append(Mismatch(seq=seq, sides=sides, face=face, expected=expected))

    gaps: list[int] = []
    truncated = False
    previous = -1
    for seq in sorted(seen):
        # Walk the holes between consecutive seqs instead of range(max): O(rolls + gaps listed).
        for missing in range(previous + 1, seq):
            if len(gaps) == MAX_GAPS_LISTED:
                truncated = True
                break
            gaps.append(missing)
        if truncated:
            break
        previous = seq

    ok = commitment_ok and not mismatches and not gaps and not duplicates
    return VerificationReport(
        ok=ok,
        commitment_ok=commitment_ok,
        mismatches=mismatches,
        gaps=gaps,
        count=len(rolls),
        duplicates=duplicates,
        gaps_truncated=truncated,
    )
