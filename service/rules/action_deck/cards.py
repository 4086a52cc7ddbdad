"""Cards as short codes (spec §3.6): "AS", "10H", "2C", and the two equal Jokers "JK-R", "JK-B" (B5).

Order (§4.10): rank ace (14) high to two low, then suit spades > hearts > diamonds > clubs.
"""

from __future__ import annotations

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
RANK_VALUE = {r: i + 2 for i, r in enumerate(RANKS)}
SUIT_VALUE = {"S": 4, "H": 3, "D": 2, "C": 1}
SUIT_NAME = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
JOKERS = ("JK-R", "JK-B")
# The canonical order of a rebuilt deck before shuffling: what Fisher–Yates permutes (deck.shuffle).
FULL_DECK: list[str] = [r + s for s in "SHDC" for r in RANKS] + list(JOKERS)
DECK_SIZE = len(FULL_DECK)
_KNOWN = frozenset(FULL_DECK)


def is_card(code: object) -> bool:
    return isinstance(code, str) and code in _KNOWN


def is_joker(card: str | None) -> bool:
    return card in JOKERS


def key(card: str) -> tuple[int, int]:
    """Higher acts earlier. A Joker sorts above every card: it is 'the highest' when a default choice
    among benny-drawn cards is needed (§4.14); it is never called in the countdown (§4.15)."""
    if is_joker(card):
        return (15, 0)
    return (RANK_VALUE[card[:-1]], SUIT_VALUE[card[-1]])


def describe(card: str) -> dict:
    if is_joker(card):
        return {"card": card, "joker": True}
    return {"card": card, "rank": RANK_VALUE[card[:-1]], "suit": SUIT_NAME[card[-1]]}


def highest(cards: list[str]) -> str:
    return max(cards, key=key)
