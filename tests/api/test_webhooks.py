"""Webhooks through the API, delivered by the service's own worker to a real receiver on 127.0.0.1 and
verified with the `standardwebhooks` package. Runs on the embedded defaults and on PostgreSQL + Redis."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import time
import uuid

import httpx
import pytest
from apikit import assert_problem, bearer, new_table
from sqlalchemy import select
from standardwebhooks.webhooks import WebhookVerificationError
from webhook_receiver import Receiver

from service.app import create_app
from service.game.webhooks.signing import Sealer, new_secret
from service.store.records.models import Webhook

SECRETS_KEY = "a deployment key for sealing webhook secrets"


@pytest.fixture
def settings(settings):
    """Loopback allowed (the receiver is on 127.0.0.1), quick retries, secrets sealed at rest. The attempt's
    timeout is well above the slowest receiver here (1.5 s): on a busy machine a 0.8 s answer once took past 2 s,
    and the retry of a delivery that did arrive is a second copy the tests count."""
    return dataclasses.replace(
        settings,
        webhooks_allow_loopback=True,
        webhooks_backoff_seconds=0.05,
        webhooks_max_attempts=3,
        webhooks_timeout_seconds=5.0,
        webhooks_secrets_key=SECRETS_KEY,
    )


@pytest.fixture
def receiver():
    with Receiver() as r:
        yield r


async def register(t, url: str, **body) -> dict:
    r = await t.client.post(f"{t.base}/webhooks", json={"url": url, **body}, headers=bearer(t.gm))
    assert r.status_code == 201, r.text
    return r.json()


async def deliveries(t, hook_id: str, **params) -> list[dict]:
    r = await t.client.get(f"{t.base}/webhooks/{hook_id}/deliveries", params=params, headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    return r.json()["items"]


async def settled(t, hook_id: str, count: int, timeout: float = 10.0) -> list[dict]:
    """The webhook's deliveries once `count` of them are no longer pending, oldest first."""
    deadline = time.monotonic() + timeout
    while True:
        items = await deliveries(t, hook_id, limit=100)
        done = [d for d in items if d["status"] != "pending"]
        if len(done) >= count or time.monotonic() > deadline:
            assert len(done) >= count, items
            return list(reversed(items))
        await asyncio.sleep(0.05)


async def note(t, text: str, *, visible: bool = True) -> None:
    await t.ok({"type": "gm_note", "text": text, "visible_to_players": visible})


# --- registration, secret, GM only -------------------------------------------------------------------


async def test_registration_returns_the_signing_secret_once_and_never_again(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url, event_types=["gm_note"])
    assert hook["secret"].startswith("whsec_") and hook["url"] == receiver.url
    assert hook["view"] == "players" and hook["status"] == "active" and hook["event_types"] == ["gm_note"]
    for r in (
        await client.get(f"{t.base}/webhooks", headers=bearer(t.gm)),
        await client.get(f"{t.base}/webhooks/{hook['id']}", headers=bearer(t.gm)),
        await client.patch(f"{t.base}/webhooks/{hook['id']}", json={"description": "VTT"}, headers=bearer(t.gm)),
    ):
        assert r.status_code == 200, r.text
        assert '"secret"' not in r.text and "whsec_" not in r.text
        assert hook["secret"].removeprefix("whsec_") not in r.text


async def test_the_secret_is_sealed_in_the_database(client, app, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    async with app.state.services.read() as s:
        stored = (await s.scalar(select(Webhook).where(Webhook.id == hook["id"]))).secret
    assert stored.startswith("aesgcm:") and hook["secret"].removeprefix("whsec_") not in stored


async def test_only_the_gm_manages_webhooks(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    _, player = await t.invite("Ala")
    base = f"{t.base}/webhooks"
    delivery = (await settled(t, hook["id"], 1))[0]["id"]
    calls = [
        ("POST", base, {"url": receiver.url}),
        ("GET", base, None),
        ("GET", f"{base}/{hook['id']}", None),
        ("PATCH", f"{base}/{hook['id']}", {"status": "paused"}),
        ("POST", f"{base}/{hook['id']}/rotate-secret", None),
        ("DELETE", f"{base}/{hook['id']}", None),
        ("GET", f"{base}/{hook['id']}/deliveries", None),
        ("GET", f"{base}/{hook['id']}/deliveries/{delivery}", None),
        ("POST", f"{base}/{hook['id']}/deliveries/{delivery}/redeliver", None),
    ]
    for method, url, body in calls:
        assert_problem(await client.request(method, url, json=body, headers=bearer(player)), 403, "gm_only")
        assert_problem(await client.request(method, url, json=body), 401, "unauthorized")
    assert (await client.get(f"{base}/{hook['id']}", headers=bearer(t.gm))).json()["status"] == "active"


async def test_a_registration_with_an_idempotency_key_is_made_once(client, receiver):
    t = await new_table(client)
    headers = {**bearer(t.gm), "Idempotency-Key": "register-the-vtt-once"}
    first = await client.post(f"{t.base}/webhooks", json={"url": receiver.url}, headers=headers)
    again = await client.post(f"{t.base}/webhooks", json={"url": receiver.url}, headers=headers)
    assert first.status_code == again.status_code == 201 and first.json() == again.json()
    assert len((await client.get(f"{t.base}/webhooks", headers=bearer(t.gm))).json()["items"]) == 1


@pytest.mark.parametrize(
    "body, field",
    [
        ({"url": "http://127.0.0.1/", "view": "everyone"}, "view"),
        ({"url": "http://127.0.0.1/", "event_types": ["Dice Rolled"]}, "event_types.0"),
        ({"url": "ftp://127.0.0.1/"}, "url"),
        ({"url": "http://127.0.0.1/", "secret": "mine"}, "secret"),
    ],
)
async def test_a_malformed_registration_is_a_422_naming_the_field(client, body, field):
    t = await new_table(client)
    r = await client.post(f"{t.base}/webhooks", json=body, headers=bearer(t.gm))
    assert r.status_code == 422 and r.json()["field"] == field, r.text


# --- delivery: signed, same shapes as the log, in order, views, filters ------------------------------


async def test_deliveries_verify_with_standard_webhooks_and_carry_the_event_as_the_log_shows_it(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url, view="gm")
    await t.invite("Ala")
    await note(t, "the door creaks")
    got = await receiver.arrived(2)
    payloads = receiver.verified(hook["secret"])
    log = [e for e in await t.events() if e["seq"] > 1]  # the campaign's creation came before the webhook
    assert [p["data"] for p in payloads] == log
    assert [p["type"] for p in payloads] == ["player_invited", "gm_note"]
    assert all(p["campaign_id"] == t.id and p["timestamp"] == p["data"]["created_at"] for p in payloads)
    assert all(h["webhook-id"].startswith("msg_") and h["content-type"] == "application/json" for h, _ in got)


async def test_events_reach_an_endpoint_in_the_order_they_were_logged(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    for i in range(8):
        await note(t, f"note {i}")
    await receiver.arrived(8)
    seqs = [p["data"]["seq"] for p in receiver.verified(hook["secret"])]
    assert seqs == sorted(seqs) and len(set(seqs)) == 8


async def test_a_players_view_webhook_never_receives_gm_only_events_or_data(client, receiver):
    t = await new_table(client)
    players_hook = await register(t, receiver.url, view="players")
    gm_hook = await register(t, receiver.path_url("/gm"), view="gm")
    _, player = await t.invite("Ala")
    await note(t, "the traitor is Brona", visible=False)
    await t.ok({"type": "create_encounter"})
    await t.ok({"type": "add_enemy", "enemy_id": "b", "name": "Shadow", "kind": "boss"})
    await note(t, "done")
    players_log = [e for e in await t.events(token=player) if e["seq"] > 1]
    gm_log = [e for e in await t.events() if e["seq"] > 1]
    assert len(gm_log) > len(players_log)
    await receiver.arrived(len(players_log))
    await receiver.arrived(len(gm_log), path="/gm")
    seen = receiver.verified(players_hook["secret"])
    assert [p["data"] for p in seen] == players_log
    assert "gm_note" in [p["type"] for p in seen] and "traitor" not in json.dumps(seen)
    enemy = next(p["data"]["data"] for p in seen if p["type"] == "enemy_added")
    assert "kind" not in enemy and "tn" not in enemy  # an unrevealed enemy's kind and TN stay with the GM
    gm_seen = receiver.verified(gm_hook["secret"], path="/gm")
    assert [p["data"] for p in gm_seen] == gm_log
    assert "traitor" in json.dumps(gm_seen)


async def test_a_webhook_with_event_types_receives_only_those(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url, event_types=["gm_note"])
    await t.invite("Ala")
    await note(t, "only this")
    await receiver.arrived(1)
    await asyncio.sleep(0.2)
    assert [p["type"] for p in receiver.verified(hook["secret"])] == ["gm_note"]


# --- pause, rotate, delete ----------------------------------------------------------------------------


async def test_a_paused_webhook_gets_nothing_and_its_pending_deliveries_go_out_in_order_on_resume(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    receiver.status = 500
    await note(t, "before the pause")
    await settled(t, hook["id"], 0)
    await receiver.arrived(1)
    r = await client.patch(f"{t.base}/webhooks/{hook['id']}", json={"status": "paused"}, headers=bearer(t.gm))
    assert r.status_code == 200 and r.json()["status"] == "paused"
    await asyncio.sleep(0.3)  # past any retry that was due
    held = len(receiver.requests())
    await note(t, "during the pause")
    await asyncio.sleep(0.3)
    assert len(receiver.requests()) == held
    receiver.status = 204
    await client.patch(f"{t.base}/webhooks/{hook['id']}", json={"status": "active"}, headers=bearer(t.gm))
    await note(t, "after the pause")
    await settled(t, hook["id"], 2)
    texts = [p["data"]["data"]["text"] for p in receiver.verified(hook["secret"])]
    assert "during the pause" not in texts
    assert texts[-2:] == ["before the pause", "after the pause"]


async def test_a_webhook_switched_to_the_players_view_never_sends_what_only_the_gm_saw(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url, view="gm")
    receiver.delay = 0.8  # the first delivery is in flight; the next ones wait behind it
    await note(t, "first")
    await receiver.arrived(1)
    await note(t, "the secret plan", visible=False)
    r = await client.patch(f"{t.base}/webhooks/{hook['id']}", json={"view": "players"}, headers=bearer(t.gm))
    assert r.status_code == 200 and r.json()["view"] == "players"
    receiver.delay = 0
    await note(t, "after")
    await settled(t, hook["id"], 2)
    texts = [p["data"]["data"]["text"] for p in receiver.verified(hook["secret"])]
    assert texts == ["first", "after"]
    assert [d["event_type"] for d in await deliveries(t, hook["id"])] == ["gm_note", "gm_note"]


async def test_after_a_rotation_deliveries_verify_with_the_new_secret_only(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    r = await client.post(f"{t.base}/webhooks/{hook['id']}/rotate-secret", headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    new = r.json()["secret"]
    assert new.startswith("whsec_") and new != hook["secret"] and r.json()["previous_secret_expires_at"] is None
    await note(t, "after rotation")
    await receiver.arrived(1)
    assert receiver.verified(new)[0]["data"]["data"]["text"] == "after rotation"
    with pytest.raises(WebhookVerificationError):
        receiver.verified(hook["secret"])


async def test_a_rotation_may_keep_the_previous_secret_signing_for_a_while(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    r = await client.post(
        f"{t.base}/webhooks/{hook['id']}/rotate-secret", params={"keep_previous_seconds": 3600}, headers=bearer(t.gm)
    )
    assert r.status_code == 200 and r.json()["previous_secret_expires_at"], r.text
    await note(t, "both verify")
    await receiver.arrived(1)
    assert receiver.verified(hook["secret"]) == receiver.verified(r.json()["secret"])


async def test_a_deleted_webhook_is_gone_with_its_deliveries(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    await note(t, "one")
    await settled(t, hook["id"], 1)
    r = await client.delete(f"{t.base}/webhooks/{hook['id']}", headers=bearer(t.gm))
    assert r.status_code == 204
    assert_problem(await client.get(f"{t.base}/webhooks/{hook['id']}", headers=bearer(t.gm)), 404, "not_found")
    assert_problem(
        await client.get(f"{t.base}/webhooks/{hook['id']}/deliveries", headers=bearer(t.gm)), 404, "not_found"
    )
    await note(t, "two")
    await asyncio.sleep(0.3)
    assert len(receiver.requests()) == 1


# --- retries, failure, redelivery, redirects -----------------------------------------------------------


async def test_deliveries_list_status_response_code_and_timing_of_every_attempt(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    receiver.plan = [500]
    await note(t, "retried once")
    (d,) = await settled(t, hook["id"], 1)
    assert d["status"] == "delivered" and d["last_response_code"] == 204 and d["last_error"] is None
    assert d["last_duration_ms"] >= 0 and d["delivered_at"] and d["event_type"] == "gm_note"
    r = await client.get(f"{t.base}/webhooks/{hook['id']}/deliveries/{d['id']}", headers=bearer(t.gm))
    detail = r.json()
    assert [a["response_code"] for a in detail["attempt_log"]] == [500, 204]
    assert detail["attempt_log"][0]["error"] == "the receiver answered 500"
    assert detail["payload"]["data"]["data"]["text"] == "retried once"
    ids = {h["webhook-id"] for h, _ in receiver.requests()}
    assert ids == {d["id"]}  # the same webhook-id on every attempt


async def test_after_the_attempt_limit_a_delivery_is_failed_and_the_next_one_goes(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    receiver.plan = [500, 503, 500]
    await note(t, "doomed")
    await note(t, "next")
    first, second = await settled(t, hook["id"], 2)
    assert first["status"] == "failed" and first["attempts"] == 3 and first["last_response_code"] == 500
    assert second["status"] == "delivered"
    failed = await deliveries(t, hook["id"], status="failed")
    assert [d["id"] for d in failed] == [first["id"]]


async def test_a_failed_delivery_can_be_redelivered_with_the_same_webhook_id(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)
    receiver.plan = [500, 500, 500]
    await note(t, "try again later")
    (d,) = await settled(t, hook["id"], 1)
    assert d["status"] == "failed"
    r = await client.post(f"{t.base}/webhooks/{hook['id']}/deliveries/{d['id']}/redeliver", headers=bearer(t.gm))
    assert r.status_code == 200 and r.json()["status"] == "pending" and r.json()["attempts"] == 0, r.text
    (d,) = await settled(t, hook["id"], 1)
    assert d["status"] == "delivered"
    headers = [h for h, _ in receiver.requests()]
    assert len(headers) == 4 and {h["webhook-id"] for h in headers} == {d["id"]}
    receiver.verified(hook["secret"])


async def test_redirects_are_not_followed(client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.path_url("/redirect"))
    await note(t, "go elsewhere")
    (d,) = await settled(t, hook["id"], 1)
    assert d["status"] == "failed" and d["last_response_code"] == 302 and "redirect" in d["last_error"]
    assert len(receiver.requests("/redirect")) == 3 and receiver.requests("/landing") == []


async def test_a_slow_receiver_delays_neither_the_api_nor_another_endpoint(client, receiver):
    t = await new_table(client)
    with Receiver() as slow:
        # Each delivery to `slow` takes 4 s. Had the notes or the other endpoint's deliveries waited for one, they
        # would end after it: the bound is that delivery, not a guess at how fast a loaded machine answers (a
        # bound of 1 s for the three notes was once missed at 1.8 s beside other test workers).
        slow.delay = 4.0
        await register(t, slow.url)
        fast = await register(t, receiver.url)
        started = time.monotonic()
        for i in range(3):
            await note(t, f"note {i}")
        assert time.monotonic() - started < slow.delay
        await receiver.arrived(3, timeout=slow.delay)
        assert max(receiver.times()) - started < slow.delay
        assert len(receiver.verified(fast["secret"])) == 3


# --- SSRF ------------------------------------------------------------------------------------------------


@pytest.fixture
async def strict_app(settings):
    """The same service with loopback refused, as every deployment runs by default."""
    app = create_app(dataclasses.replace(settings, webhooks_allow_loopback=False))
    async with app.router.lifespan_context(app):
        yield app


@pytest.fixture
async def strict_client(strict_app):
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=strict_app), base_url="http://rk.test") as c:
        yield c


@pytest.mark.parametrize(
    "url",
    [
        "http://127.0.0.1:8080/hook",
        "http://10.0.0.7/hook",
        "http://169.254.169.254/latest/meta-data/",
        "http://[::1]:8080/hook",
        "http://localhost:8080/hook",
        "http://192.168.1.20/hook",
        "http://[fe80::1]/hook",
    ],
)
async def test_private_loopback_and_link_local_targets_are_refused(strict_client, url):
    t = await new_table(strict_client)
    r = await strict_client.post(f"{t.base}/webhooks", json={"url": url}, headers=bearer(t.gm))
    assert_problem(r, 422, "webhook_url_forbidden", "url")


async def test_a_webhook_cannot_be_moved_to_a_refused_target(client, strict_client, receiver):
    t = await new_table(client)
    hook = await register(t, receiver.url)  # allowed where loopback is
    r = await strict_client.patch(
        f"{t.base}/webhooks/{hook['id']}", json={"url": "http://10.0.0.7/"}, headers=bearer(t.gm)
    )
    assert_problem(r, 422, "webhook_url_forbidden", "url")


async def test_a_target_that_resolves_to_a_refused_address_by_delivery_time_is_not_reached(
    strict_app, strict_client, receiver
):
    """DNS rebinding: every connection checks the addresses it is about to use. The row stands for a name that
    resolved to a public address at registration and to loopback now."""
    t = await new_table(strict_client)
    hook_id = str(uuid.uuid4())
    async with strict_app.state.services.write() as s:
        s.add(
            Webhook(
                id=hook_id,
                campaign_id=t.id,
                url=receiver.url,
                event_types=[],
                view="gm",
                status="active",
                description="",
                secret=Sealer(SECRETS_KEY).seal(hook_id, new_secret()),
            )
        )
    await note(t, "never sent")
    (d,) = await settled(t, hook_id, 1)
    assert d["status"] == "failed" and d["last_response_code"] is None and "refused" in d["last_error"]
    assert receiver.requests() == []


# --- GraphQL ---------------------------------------------------------------------------------------------


async def gql(client, query: str, variables: dict, token: str) -> dict:
    r = await client.post("/graphql", json={"query": query, "variables": variables}, headers=bearer(token))
    assert r.status_code == 200, r.text
    return r.json()


async def test_graphql_manages_webhooks_and_their_deliveries_for_the_gm_only(client, receiver):
    t = await new_table(client)
    _, player = await t.invite("Ala")
    create = (
        """mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { secret webhook { id view eventTypes } } }"""
    )
    variables = {"i": {"campaignId": t.id, "url": receiver.url, "view": "gm", "eventTypes": ["gm_note"]}}
    denied = await gql(client, create, variables, player)
    assert denied["errors"][0]["extensions"]["code"] == "gm_only"
    made = (await gql(client, create, variables, t.gm))["data"]["createWebhook"]
    assert made["secret"].startswith("whsec_") and made["webhook"]["view"] == "gm"
    hook_id = made["webhook"]["id"]
    await note(t, "through graphql")
    await settled(t, hook_id, 1)
    assert receiver.verified(made["secret"])[0]["data"]["data"]["text"] == "through graphql"
    page = await gql(
        client,
        """query($c: ID!, $w: ID!) { webhookDeliveries(campaignId: $c, webhookId: $w) {
        items { id status lastResponseCode lastDurationMs } hasMore } }""",
        {"c": t.id, "w": hook_id},
        t.gm,
    )
    (d,) = page["data"]["webhookDeliveries"]["items"]
    assert d["status"] == "delivered" and d["lastResponseCode"] == 204
    paused = await gql(
        client,
        """mutation($i: UpdateWebhookInput!) { updateWebhook(input: $i) { status } }""",
        {"i": {"campaignId": t.id, "webhookId": hook_id, "status": "paused"}},
        t.gm,
    )
    assert paused["data"]["updateWebhook"]["status"] == "paused"
    listed = await gql(client, """query($c: ID!) { webhooks(campaignId: $c) { id status } }""", {"c": t.id}, t.gm)
    assert listed["data"]["webhooks"] == [{"id": hook_id, "status": "paused"}]
    rotated = await gql(
        client,
        """mutation($i: RotateWebhookSecretInput!) { rotateWebhookSecret(input: $i) { secret } }""",
        {"i": {"campaignId": t.id, "webhookId": hook_id}},
        t.gm,
    )
    assert rotated["data"]["rotateWebhookSecret"]["secret"] not in (None, made["secret"])
    too_long = await gql(
        client,
        """mutation($i: RotateWebhookSecretInput!) { rotateWebhookSecret(input: $i) { secret } }""",
        {"i": {"campaignId": t.id, "webhookId": hook_id, "keepPreviousSeconds": 8 * 24 * 3600}},
        t.gm,
    )
    (error,) = too_long["errors"]
    assert error["extensions"]["code"] == "invalid_input" and error["extensions"]["field"] == "keep_previous_seconds"
    redo = await gql(
        client,
        """mutation($i: WebhookDeliveryInput!) { redeliverWebhookDelivery(input: $i) { status attemptLog { responseCode } } }""",
        {"i": {"campaignId": t.id, "webhookId": hook_id, "deliveryId": d["id"]}},
        t.gm,
    )
    assert redo["data"]["redeliverWebhookDelivery"] == {"status": "pending", "attemptLog": [{"responseCode": 204}]}
    gone = await gql(
        client,
        """mutation($i: WebhookInput!) { deleteWebhook(input: $i) }""",
        {"i": {"campaignId": t.id, "webhookId": hook_id}},
        t.gm,
    )
    assert gone["data"]["deleteWebhook"] is True
