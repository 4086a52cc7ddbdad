"""Settings from the environment: the webhook ones parse, default safely, and refuse nonsense loudly."""
from __future__ import annotations

import pytest

from service.settings import Settings


def test_webhooks_refuse_loopback_and_seal_nothing_by_default():
    s = Settings.from_env({})
    assert s.webhooks_allow_loopback is False and s.webhooks_secrets_key is None
    assert (s.webhooks_max_attempts, s.webhooks_backoff_seconds, s.webhooks_timeout_seconds) == (12, 10.0, 10.0)


def test_webhook_settings_are_read_from_the_environment():
    s = Settings.from_env({"RULEKEEPER_WEBHOOKS_ALLOW_LOOPBACK": "true", "RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS": "3",
                           "RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS": "0.5", "RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS": "2",
                           "RULEKEEPER_WEBHOOKS_SECRETS_KEY": "sealing-key-42"})
    assert s.webhooks_allow_loopback is True and s.webhooks_max_attempts == 3
    assert s.webhooks_backoff_seconds == 0.5 and s.webhooks_timeout_seconds == 2.0
    assert str(s.webhooks_secrets_key) == "sealing-key-42" and "sealing-key-42" not in repr(s)


@pytest.mark.parametrize("name, value", [("RULEKEEPER_WEBHOOKS_ALLOW_LOOPBACK", "maybe"),
                                         ("RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS", "0"),
                                         ("RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS", "many"),
                                         ("RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS", "-1"),
                                         ("RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS", "soon")])
def test_a_malformed_webhook_setting_stops_the_service_with_its_name(name, value):
    with pytest.raises(ValueError, match=name):
        Settings.from_env({name: value})
