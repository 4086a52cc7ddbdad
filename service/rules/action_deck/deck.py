"""The 54-card deck (spec §3.6, §4.16, §5.3): rebuild, shuffle with the injected dice, draw, discard.

Invariant: draw_pile + discard_pile + in_play is always the 54 cards, each once. Shuffles are Fisher–Yates
with one `dice.roll(i + 1)` per position from the top index down, over a known starting order (the
canonical deck for a rebuild, the public discard pile for a refill), so a verifiable campaign can recompute
the order from the logged dice. Those dice are sealed (nobody sees them, the GM included) until the order no
longer matters; then `unseal` shows them and the order to everyone. In table mode the physical deck is shuffled at the table: the server keeps
the undealt cards as a set and deals validate the cards the table reports.
"""

from __future__ import annotations

from service.i18n.message import _, _n
from service.rules.action_deck.cards import FULL_DECK, is_card, is_joker
from service.rules.action_deck.context import Ctx
from service.rules.action_deck.errors import violation
from service.rules.action_deck.events_model import ActionDeckDeckShuffled

SHUFFLE_PURPOSE = "deck_shuffle"  # each shuffle's dice carry "deck_shuffle:<shuffle_count>", its seal


def _shuffle(ctx: Ctx, cards: list[str], reason: str) -> list[str]:
    deck = ctx.deck
    unseal(ctx, reason)  # the previous order no longer matters: its cards are all dealt, or all back in the deck
    deck["shuffle_count"] += 1
    seal = f"{SHUFFLE_PURPOSE}:{deck['shuffle_count']}"
    order = list(cards)
    if ctx.table_mode:
        order.sort(key=FULL_DECK.index)  # no order known: the table shuffled the real cards
    else:
        for i in range(len(order) - 1, 0, -1):
            j = ctx.roller.plain(i + 1, seal, sealed=True) - 1
            order[i], order[j] = order[j], order[i]
    deck["ordered"] = not ctx.table_mode
    dice = ctx.roller.take()
    summary = {"reason": reason, "cards": len(order), "shuffle_count": deck["shuffle_count"]}
    ctx.emit("deck_shuffled", ActionDeckDeckShuffled(**summary))
    if not deck["ordered"]:  # the table shuffled real cards: which cards went in is all there is to record
        ctx.emit(
            "deck_order",
            ActionDeckDeckShuffled(**summary, starting_order=list(cards), order=None, dice=[]),
            gm_only=True,
            redacted=ActionDeckDeckShuffled(**summary),
        )
        return order
    # §8: the undealt order is hidden from everyone, the GM included, and the dice would rebuild it. Sealed, not
    # GM-only; `unseal` shows both once the order no longer matters.
    order_record = {**summary, "seal": seal, "starting_order": list(cards), "order": list(order)}
    deck["sealed"] = {**order_record, "dice": dice}
    ctx.emit(
        "deck_order",
        ActionDeckDeckShuffled(**order_record, dice=dice),
        sealed=True,
        redacted=ActionDeckDeckShuffled(**summary, seal=seal),
    )
    return order


def unseal(ctx: Ctx, why: str) -> None:
    """Show everyone the sealed shuffle, its order and its dice, once dealing from it is over: a refill after
    its last card, a rebuild that puts every card back, the end of the encounter."""
    sealed = ctx.deck.get("sealed")
    if sealed is None:
        return
    ctx.deck["sealed"] = None
    revealed = {k: v for k, v in sealed.items() if k != "dice"}
    ctx.emit("dice_unsealed", ActionDeckDeckShuffled(**revealed, why=why, shuffle_dice=sealed["dice"]))


def being_dealt(table: dict) -> bool:
    """A service-shuffled deck is still being dealt: its order is sealed (or, in a table saved before seals
    existed, an encounter runs on an ordered deck)."""
    deck = table.get("deck") or {}
    return deck.get("sealed") is not None or (
        table.get("encounter") is not None and bool(deck.get("ordered")) and "sealed" not in deck
    )


def rebuild(ctx: Ctx, reason: str) -> None:
    """All 54 cards back and shuffled: at each encounter start (B46) and after a Joker round (B3)."""
    deck = ctx.deck
    deck["draw_pile"] = _shuffle(ctx, list(FULL_DECK), reason)
    deck["discard_pile"] = []
    deck["in_play"] = []


def _refill(ctx: Ctx) -> None:
    """B4: the draw pile ran out: shuffle the discards (never the cards in play) into a new draw pile."""
    deck = ctx.deck
    deck["draw_pile"] = _shuffle(ctx, deck["discard_pile"], "draw_pile_empty")
    deck["discard_pile"] = []


def validate_draws(ctx: Ctx, n: int, cards: list[str] | None, field: str) -> None:
    """Everything a deal or a benny draw needs, checked before any die is rolled or card moved."""
    deck = ctx.deck
    if n > len(deck["draw_pile"]) + len(deck["discard_pile"]):
        raise violation(
            "deck_exhausted",
            _n(
                "{n} card is needed but only {count} + {count_2} discards remain (B4)",
                "{n} cards are needed but only {count} + {count_2} discards remain (B4)",
                n,
                n=n,
                count=len(deck["draw_pile"]),
                count_2=len(deck["discard_pile"]),
            ),
        )
    if not ctx.table_mode:
        if cards is not None:
            raise violation(
                "cards_not_expected",
                _(
                    "the service deals from its own shuffled deck; send "
                    "cards only when the campaign plays with table dice "
                    "and cards"
                ),
                field,
            )
        return
    if cards is None:
        raise violation(
            "cards_required",
            _n("table mode: send the {n} card the table drew", "table mode: send the {n} cards the table drew", n, n=n),
            field,
        )
    if len(cards) != n:
        raise violation(
            "wrong_card_count",
            _n(
                "{n} card is dealt, {count} were sent",
                "{n} cards are dealt, {count} were sent",
                n,
                n=n,
                count=len(cards),
            ),
            field,
        )
    draw, discard = set(deck["draw_pile"]), set(deck["discard_pile"])
    for i, card in enumerate(cards):
        where = f"{field}[{i}]" if field == "cards" else field
        if not is_card(card):
            raise violation(
                "unknown_card",
                _("{card!r} is no card: use 2–10, J, Q, K, A + S/H/D/C, or JK-R / JK-B", card=card),
                where,
            )
        if not draw:
            draw, discard = discard, set()
        if card not in draw:
            raise violation(
                "card_not_in_deck", _("{card} is not in the draw pile (dealt or discarded)", card=card), where
            )
        draw.remove(card)


def draw(ctx: Ctx, card: str | None = None) -> str:
    deck = ctx.deck
    if not deck["draw_pile"]:
        _refill(ctx)
    if ctx.table_mode:
        if card is None:
            raise RuntimeError("a draw at the table names its card (validate_draws asks for it)")
        deck["draw_pile"].remove(card)
    else:
        card = deck["draw_pile"].pop(0)
    deck["in_play"].append(card)
    if is_joker(card):
        deck["joker_dealt_this_round"] = True  # B3/B10: any Joker dealt or drawn triggers the reshuffle
    return card


def discard(ctx: Ctx, cards: list[str]) -> None:
    deck = ctx.deck
    for card in cards:
        if card in deck["in_play"]:
            deck["in_play"].remove(card)
            deck["discard_pile"].append(card)


def discard_all_in_play(ctx: Ctx) -> None:
    discard(ctx, list(ctx.deck["in_play"]))
