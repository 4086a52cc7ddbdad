"""Settings from the environment: the webhook ones parse, default safely, and refuse nonsense loudly."""

from __future__ import annotations

import pytest

from service.settings import Settings


def test_webhooks_refuse_loopback_and_seal_nothing_by_default():
    s = Settings.from_env({})
    assert s.webhooks_allow_loopback is False and s.webhooks_secrets_key is None
    assert (s.webhooks_max_attempts, s.webhooks_backoff_seconds, s.webhooks_timeout_seconds) == (12, 10.0, 10.0)


def test_webhook_settings_are_read_from_the_environment():
    s = Settings.from_env(
        {
            "RULEKEEPER_WEBHOOKS_ALLOW_LOOPBACK": "true",
            "RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS": "3",
            "RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS": "0.5",
            "RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS": "2",
            "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "sealing-key-42",
        }
    )
    assert s.webhooks_allow_loopback is True and s.webhooks_max_attempts == 3
    assert s.webhooks_backoff_seconds == 0.5 and s.webhooks_timeout_seconds == 2.0
    assert str(s.webhooks_secrets_key) == "sealing-key-42" and "sealing-key-42" not in repr(s)


def test_fair_delivery_and_unattended_default_settings_default_and_are_read_from_the_environment():
    s = Settings.from_env({})
    assert (
        s.webhooks_connect_timeout_seconds,
        s.webhooks_max_in_flight,
        s.webhooks_max_in_flight_per_campaign,
        s.webhooks_disable_after_timeouts,
        s.deadline_max_defaults_in_row,
    ) == (3.0, 32, 4, 5, 10)
    s = Settings.from_env(
        {
            "RULEKEEPER_WEBHOOKS_CONNECT_TIMEOUT_SECONDS": "1.5",
            "RULEKEEPER_WEBHOOKS_MAX_IN_FLIGHT": "64",
            "RULEKEEPER_WEBHOOKS_MAX_IN_FLIGHT_PER_CAMPAIGN": "2",
            "RULEKEEPER_WEBHOOKS_DISABLE_AFTER_TIMEOUTS": "3",
            "RULEKEEPER_DEADLINE_MAX_DEFAULTS_IN_ROW": "20",
        }
    )
    assert (
        s.webhooks_connect_timeout_seconds,
        s.webhooks_max_in_flight,
        s.webhooks_max_in_flight_per_campaign,
        s.webhooks_disable_after_timeouts,
        s.deadline_max_defaults_in_row,
    ) == (1.5, 64, 2, 3, 20)


@pytest.mark.parametrize(
    "name, value",
    [
        ("RULEKEEPER_WEBHOOKS_ALLOW_LOOPBACK", "maybe"),
        ("RULEKEEPER_WEBHOOKS_CONNECT_TIMEOUT_SECONDS", "0"),
        ("RULEKEEPER_WEBHOOKS_MAX_IN_FLIGHT_PER_CAMPAIGN", "0"),
        ("RULEKEEPER_WEBHOOKS_DISABLE_AFTER_TIMEOUTS", "never"),
        ("RULEKEEPER_DEADLINE_MAX_DEFAULTS_IN_ROW", "0"),
        ("RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS", "0"),
        ("RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS", "many"),
        ("RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS", "-1"),
        ("RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS", "soon"),
    ],
)
def test_a_malformed_webhook_setting_stops_the_service_with_its_name(name, value):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})
