"""Action Deck: Savage Worlds-style cards for initiative, aces, raises, the Wild Die and bennies.

Spec: shared/rules/action_deck.md; seed 004_85fbbc7e645ad5c4.txt (Polish; the final word).
"""

from service.rules.action_deck.engine import ActionDeckSystem

SYSTEM = ActionDeckSystem()
__all__ = ["SYSTEM", "ActionDeckSystem"]
