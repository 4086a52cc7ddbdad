"""The typed contract of the system (State, Sheet, EventPayloads): the models are strict, described and uniquely
titled. That every emission site builds the model of its event type is tests/rules/test_emission_sites.py; the
states are checked against `State` and `Sheet` after every move by the driver."""

from __future__ import annotations

from danger_pool_support import check_models

from service.rules.danger_pool import SYSTEM


def test_event_types_named_at_run_time_have_payload_models():
    # character_{status} when a doomed character leaves, danger_added_{cause} after a roll.
    assert {"character_dead", "character_departed", "danger_added_player_ones", "danger_added_stupid"} <= set(
        SYSTEM.EventPayloads
    )


def test_models_are_strict_described_and_uniquely_titled():
    check_models(SYSTEM, "DangerPool")
