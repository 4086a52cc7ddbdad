"""The typed contract of the system (State, Sheet, EventPayloads): every emitted event type has a payload model,
and the models are strict, described and uniquely titled. Values are checked after every move by the driver."""
from __future__ import annotations

from action_deck_support import check_models, emitted_event_types

from service.rules.action_deck import SYSTEM


def test_every_emitted_event_type_has_a_payload_model():
    assert emitted_event_types("action_deck") <= set(SYSTEM.EventPayloads)


def test_models_are_strict_described_and_uniquely_titled():
    check_models(SYSTEM, "ActionDeck")
