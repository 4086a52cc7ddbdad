"""The typed contract of the system (State, Sheet, EventPayloads): the models are strict, described and uniquely
titled. That every emission site builds the model of its event type is tests/rules/test_emission_sites.py; the
states are checked against `State` and `Sheet` after every move by the driver."""

from __future__ import annotations

from iskra_support import check_models

from service.rules.iskra import SYSTEM


def test_models_are_strict_described_and_uniquely_titled():
    check_models(SYSTEM, "Iskra")
