"""Deliveries are signed per Standard Webhooks v1: checked with the `standardwebhooks` package, as a
receiver would, never with the service's own code. Secrets are sealed at rest when a key is set."""

from __future__ import annotations

import base64
import json
import time

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from service.game.webhooks.signing import Sealer, SecretUnavailable, headers, new_secret

BODY = json.dumps({"type": "dice_rolled", "campaign_id": "c1", "data": {"seq": 3, "type": "dice_rolled"}})


def test_a_new_secret_is_whsec_and_32_random_bytes():
    secret = new_secret()
    assert secret.startswith("whsec_")
    assert len(base64.b64decode(secret.removeprefix("whsec_"))) == 32
    assert new_secret() != secret


def test_a_standard_webhooks_library_verifies_the_signature():
    secret = new_secret()
    signed = headers("msg_1", int(time.time()), BODY, [secret])
    assert Webhook(secret).verify(BODY, signed) == json.loads(BODY)


def test_a_changed_body_id_or_timestamp_fails_verification():
    secret = new_secret()
    now = int(time.time())
    signed = headers("msg_1", now, BODY, [secret])
    for body, hdrs in (
        (BODY + " ", signed),
        (BODY, {**signed, "webhook-id": "msg_2"}),
        (BODY, {**signed, "webhook-timestamp": str(now - 1)}),
    ):
        with pytest.raises(WebhookVerificationError):
            Webhook(secret).verify(body, hdrs)


def test_another_secret_fails_verification():
    signed = headers("msg_1", int(time.time()), BODY, [new_secret()])
    with pytest.raises(WebhookVerificationError):
        Webhook(new_secret()).verify(BODY, signed)


def test_an_old_timestamp_is_rejected_as_a_replay():
    secret = new_secret()
    signed = headers("msg_1", int(time.time()) - 3600, BODY, [secret])
    with pytest.raises(WebhookVerificationError, match="too old"):
        Webhook(secret).verify(BODY, signed)


def test_during_a_rotation_both_the_new_and_the_previous_secret_verify():
    new, old = new_secret(), new_secret()
    signed = headers("msg_1", int(time.time()), BODY, [new, old])
    assert len(signed["webhook-signature"].split(" ")) == 2
    Webhook(new).verify(BODY, signed)
    Webhook(old).verify(BODY, signed)


def test_a_sealed_secret_is_not_in_the_stored_text_and_opens_with_the_key():
    secret = new_secret()
    sealer = Sealer("deployment key")
    stored = sealer.seal("wh1", secret)
    assert stored.startswith("aesgcm:") and secret not in stored and secret.removeprefix("whsec_") not in stored
    assert sealer.open("wh1", stored) == secret


def test_a_sealed_secret_does_not_open_without_the_key_another_key_or_for_another_webhook():
    stored = Sealer("deployment key").seal("wh1", new_secret())
    for sealer, webhook_id in ((Sealer(None), "wh1"), (Sealer("other key"), "wh1"), (Sealer("deployment key"), "wh2")):
        with pytest.raises(SecretUnavailable):
            sealer.open(webhook_id, stored)


def test_without_a_key_secrets_are_stored_plain_and_still_open_once_a_key_is_set():
    secret = new_secret()
    stored = Sealer(None).seal("wh1", secret)
    assert stored == "plain:" + secret
    assert Sealer("deployment key").open("wh1", stored) == secret
