"""The deadline worker's scan interval comes from the environment; a bad value stops the start, named."""

from __future__ import annotations

import pytest

from service.settings import Settings


def test_deadline_scan_interval_defaults_to_a_second_and_is_read_from_the_environment():
    assert Settings.from_env({}).deadline_scan_seconds == 1.0
    assert Settings.from_env({"RULEKEEPER_DEADLINE_SCAN_SECONDS": "0.25"}).deadline_scan_seconds == 0.25


@pytest.mark.parametrize("value", ["0", "-1", "soon"])
def test_a_malformed_deadline_scan_interval_stops_the_service_with_its_name(value):
    with pytest.raises(ValueError, match="RULEKEEPER_DEADLINE_SCAN_SECONDS"):
        Settings.from_env({"RULEKEEPER_DEADLINE_SCAN_SECONDS": value})
