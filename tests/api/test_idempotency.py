"""Idempotency-Key: a retry gets the first reply and changes nothing, and a key is no way to cheat or peek.

Keys live in the caller's own space (checked after authentication), stand for one operation, path and body,
are stored only hashed with their replies sealed, expire, and cannot be left stuck by a request that died.
"""

from __future__ import annotations

import asyncio
import dataclasses
import uuid
from contextlib import asynccontextmanager

import httpx
import pytest
from apikit import Table, assert_problem, bearer, new_table
from sqlalchemy import text

from service.game import idempotency
from service.game.moves import pipeline, rolls
from service.settings import Secret, Settings

CAMPAIGN = {"name": "Keyed", "system": "stepdice", "dice_mode": "server"}
ROLL = """mutation($i: RollInput!) { rollExpression(input: $i) { total } }"""
BRONA = {
    "name": "Brona",
    "role": "warrior",
    "talents": ["Athlete", "Medic"],
    "equipment": {"weapon": "axe", "protection": "chain shirt", "items": ["rope", "torch", "whetstone"]},
}


class ProcessDied(BaseException):
    """Stands for the process being killed: nothing after it runs, no except clause catches it."""


def uuid_key() -> str:
    """What an anonymous caller should send. Fresh per test: the server backend's database outlives a test."""
    return str(uuid.uuid4())


def later(monkeypatch, seconds: float) -> None:
    now = idempotency.clock()
    monkeypatch.setattr(idempotency, "clock", lambda: now + seconds)


def keyed(token: str | None, key: str) -> dict[str, str]:
    return {**(bearer(token) if token else {}), "Idempotency-Key": key}


async def rolled(t: Table) -> int:
    return len([e for e in await t.events() if e["type"] == "expression_rolled"])


async def stored_rows(app) -> set[str]:
    async with app.state.services.read() as s:
        rows = (await s.execute(text("SELECT * FROM idempotency_keys"))).all()
    return {" ".join(str(v) for v in row) for row in rows}


@asynccontextmanager
async def serve(settings: Settings):
    from service.app import create_app

    app = create_app(settings)
    async with app.router.lifespan_context(app):
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
            yield c


# Who: keys are the caller's own


async def test_an_anonymous_create_needs_a_key_too_long_to_guess(client):
    r = await client.post("/v1/campaigns", json=CAMPAIGN, headers={"Idempotency-Key": "create-1"})
    assert_problem(r, 400, "invalid_idempotency_key", "Idempotency-Key")


async def test_an_anonymous_creator_recovers_their_gm_token_with_their_key(client):
    KEY, OTHER_KEY = uuid_key(), uuid_key()
    first = await client.post("/v1/campaigns", json=CAMPAIGN, headers={"Idempotency-Key": KEY})
    again = await client.post("/v1/campaigns", json=CAMPAIGN, headers={"Idempotency-Key": KEY})
    other = await client.post("/v1/campaigns", json=CAMPAIGN, headers={"Idempotency-Key": OTHER_KEY})
    assert first.status_code == again.status_code == other.status_code == 201
    assert again.json() == first.json() and again.headers["idempotent-replayed"] == "true"
    assert other.json()["gm_token"] != first.json()["gm_token"]


async def test_a_different_credential_with_the_same_key_gets_its_own_reply(client):
    t = await new_table(client, dice_mode="server")
    _, player = await t.invite("Ola")
    gm = await client.post(f"{t.base}/rolls", json={"expression": "8d20"}, headers=keyed(t.gm, "roll-1"))
    pl = await client.post(f"{t.base}/rolls", json={"expression": "8d20"}, headers=keyed(player, "roll-1"))
    assert gm.status_code == pl.status_code == 200
    assert "idempotent-replayed" not in pl.headers
    assert await rolled(t) == 2


async def test_an_invited_players_token_is_replayed_only_to_the_gm_who_invited(client):
    a = await new_table(client)
    b = await new_table(client)
    first = await client.post(f"{a.base}/players", json={"name": "Ola"}, headers=keyed(a.gm, "invite-1"))
    again = await client.post(f"{a.base}/players", json={"name": "Ola"}, headers=keyed(a.gm, "invite-1"))
    assert again.json() == first.json()
    # Another campaign's GM with the same key and body on this campaign learns nothing, not even that it exists.
    assert_problem(
        await client.post(f"{a.base}/players", json={"name": "Ola"}, headers=keyed(b.gm, "invite-1")),
        401,
        "unauthorized",
    )
    theirs = await client.post(f"{b.base}/players", json={"name": "Ola"}, headers=keyed(b.gm, "invite-1"))
    assert theirs.status_code == 201 and theirs.json()["token"] != first.json()["token"]


async def test_with_an_operator_key_creation_keys_belong_to_its_holders(settings):
    async with serve(dataclasses.replace(settings, operator_key=Secret("s3cret"))) as c:
        first = await c.post(
            "/v1/campaigns", json=CAMPAIGN, headers=keyed("s3cret", "op-1-0123456789abcdef0123456789abcdef")
        )
        again = await c.post(
            "/v1/campaigns", json=CAMPAIGN, headers=keyed("s3cret", "op-1-0123456789abcdef0123456789abcdef")
        )
        assert first.status_code == again.status_code == 201 and again.json() == first.json()
        for token in (None, "wrong"):
            assert_problem(
                await c.post(
                    "/v1/campaigns", json=CAMPAIGN, headers=keyed(token, "op-1-0123456789abcdef0123456789abcdef")
                ),
                401,
                "operator_key_required",
            )


async def test_the_table_holds_no_key_and_no_token_in_plain_text(app, client):
    KEY = uuid_key()
    before = await stored_rows(app)
    created = (await client.post("/v1/campaigns", json=CAMPAIGN, headers={"Idempotency-Key": KEY})).json()
    t = Table(client=client, id=created["campaign"]["id"], gm=created["gm_token"])
    invited = await client.post(f"{t.base}/players", json={"name": "Ola"}, headers=keyed(t.gm, "invite-1"))
    await client.post(f"{t.base}/rolls", json={"expression": "1d6"}, headers=keyed(t.gm, "roll-1"))
    rows = await stored_rows(app) - before
    assert len(rows) == 3
    for row in rows:
        for secret in (KEY, "invite-1", "roll-1", t.gm, invited.json()["token"], "rk_", t.id):
            assert secret not in row


# Authentication comes first


async def test_a_request_without_a_valid_credential_is_401_before_its_key_is_looked_up(client):
    KEY = uuid_key()
    created = (await client.post("/v1/campaigns", json=CAMPAIGN, headers={"Idempotency-Key": KEY})).json()
    base = f"/v1/campaigns/{created['campaign']['id']}"
    for token in (None, "rk_gm_not-a-token"):
        r = await client.post(f"{base}/rolls", json={"expression": "1d6"}, headers=keyed(token, KEY))
        assert_problem(r, 401, "unauthorized")


async def test_a_graphql_write_without_a_valid_credential_is_unauthorized_before_its_key_is_looked_up(client):
    KEY = uuid_key()
    created = (await client.post("/v1/campaigns", json=CAMPAIGN, headers={"Idempotency-Key": KEY})).json()
    body = {"query": ROLL, "variables": {"i": {"campaignId": created["campaign"]["id"], "expression": "1d6"}}}
    out = (await client.post("/graphql", json=body, headers={"Idempotency-Key": KEY})).json()
    assert out["errors"][0]["extensions"]["code"] == "unauthorized"


async def test_a_forbidden_keyed_request_is_403_and_leaves_the_key_free(client):
    t = await new_table(client, dice_mode="server")
    _, player = await t.invite("Ola")
    assert_problem(
        await client.post(f"{t.base}/players", json={"name": "Eve"}, headers=keyed(player, "k-1")), 403, "gm_only"
    )
    again = await client.post(f"{t.base}/players", json={"name": "Eve"}, headers=keyed(player, "k-1"))
    assert_problem(again, 403, "gm_only")


# What a key stands for


async def test_a_key_stands_for_one_operation_path_and_body(client):
    t = await new_table(client, dice_mode="server")
    h = keyed(t.gm, "k-1")
    assert (await client.post(f"{t.base}/rolls", json={"expression": "1d6"}, headers=h)).status_code == 200
    assert_problem(
        await client.post(f"{t.base}/rolls", json={"expression": "1d4"}, headers=h),
        422,
        "idempotency_key_reused",
        "Idempotency-Key",
    )
    assert_problem(
        await client.post(f"{t.base}/players", json={"name": "1d6"}, headers=h),
        422,
        "idempotency_key_reused",
        "Idempotency-Key",
    )
    body = {"query": ROLL, "variables": {"i": {"campaignId": t.id, "expression": "1d6"}}}
    out = (await client.post("/graphql", json=body, headers=h)).json()
    assert out["errors"][0]["extensions"]["code"] == "idempotency_key_reused"
    assert await rolled(t) == 1


async def test_a_different_body_with_the_same_key_is_refused_only_to_the_same_credential(client):
    t = await new_table(client, dice_mode="server")
    _, player = await t.invite("Ola")
    await client.post(f"{t.base}/rolls", json={"expression": "1d6"}, headers=keyed(t.gm, "k-1"))
    mine = await client.post(f"{t.base}/rolls", json={"expression": "1d4"}, headers=keyed(player, "k-1"))
    assert mine.status_code == 200 and "idempotent-replayed" not in mine.headers


async def test_a_retry_whose_json_is_spelled_differently_is_the_same_request(client):
    t = await new_table(client, dice_mode="server")
    h = {**keyed(t.gm, "k-1"), "content-type": "application/json"}
    first = await client.post(f"{t.base}/rolls", content=b'{"expression":"2d6","label":"hit"}', headers=h)
    again = await client.post(f"{t.base}/rolls", content=b'{ "label": "hit",\n  "expression": "2d6" }', headers=h)
    assert again.status_code == 200 and again.json() == first.json()
    assert again.headers["idempotent-replayed"] == "true"


async def test_if_match_is_part_of_the_request_a_key_stands_for(client):
    t = await new_table(client)
    etag = (await client.get(f"{t.base}/state", headers=bearer(t.gm))).headers["etag"]
    note = {"type": "gm_note", "text": "rain"}
    assert (await t.act(note, headers={"Idempotency-Key": "k-1", "If-Match": etag})).status_code == 200
    assert_problem(
        await t.act(note, headers={"Idempotency-Key": "k-1", "If-Match": '"999"'}),
        422,
        "idempotency_key_reused",
        "Idempotency-Key",
    )


async def test_every_keyed_operation_replays_its_first_reply(client):
    KEY = uuid_key()

    async def twice(path: str, body: dict | None, token: str | None, key: str) -> dict:
        first = await client.post(path, json=body, headers=keyed(token, key))
        again = await client.post(path, json=body, headers=keyed(token, key))
        assert first.status_code in (200, 201), first.text
        assert (again.status_code, again.json()) == (first.status_code, first.json())
        assert again.headers["idempotent-replayed"] == "true"
        assert again.headers.get("etag") == first.headers.get("etag")
        return first.json()

    created = await twice("/v1/campaigns", {**CAMPAIGN, "dice_mode": "verifiable"}, None, KEY)
    t = Table(client=client, id=created["campaign"]["id"], gm=created["gm_token"])
    await twice(f"{t.base}/players", {"name": "Ola"}, t.gm, "invite")
    await twice(
        f"{t.base}/characters",
        {"sheet": BRONA},
        t.gm,
        "character",
    )
    await twice(f"{t.base}/actions", {"action": {"type": "gm_note", "text": "rain"}}, t.gm, "act")
    await twice(f"{t.base}/rolls", {"expression": "1d20"}, t.gm, "roll")
    await twice(f"{t.base}/dice-sessions/current/close", None, t.gm, "close")
    types = [e["type"] for e in await t.events()]
    for once in ("player_invited", "character_created", "gm_note", "expression_rolled", "dice_session_closed"):
        assert types.count(once) == 1, (once, types)


async def test_graphql_act_with_a_key_applies_once(client):
    t = await new_table(client)
    q = """mutation($i: ActInput!) { act(input: $i) { version } }"""
    body = {"query": q, "variables": {"i": {"campaignId": t.id, "action": {"stepdice": {"gmNote": {"text": "rain"}}}}}}
    first = (await client.post("/graphql", json=body, headers=keyed(t.gm, "act-1"))).json()
    again = (await client.post("/graphql", json=body, headers=keyed(t.gm, "act-1"))).json()
    assert "errors" not in first and again == first
    assert [e["type"] for e in await t.events()].count("gm_note") == 1


GQL_WRITES = {
    "createCampaign": "mutation($i: CreateCampaignInput!) { createCampaign(input: $i) { campaign { id } gmToken } }",
    "invitePlayer": "mutation($i: InvitePlayerInput!) { invitePlayer(input: $i) { player { id } token } }",
    "createCharacter": "mutation($i: CreateCharacterInput!) { createCharacter(input: $i) { character { id } } }",
    "closeDiceSession": "mutation($i: CloseDiceSessionInput!) { closeDiceSession(input: $i) { closed { number } } }",
    "setTurnDeadlines": "mutation($i: SetTurnDeadlinesInput!) { setTurnDeadlines(input: $i) { settings { turnSeconds } } }",
    "pauseTurnDeadlines": "mutation($i: TurnDeadlinesCampaignInput!) { pauseTurnDeadlines(input: $i) { paused } }",
    "resumeTurnDeadlines": "mutation($i: TurnDeadlinesCampaignInput!) { resumeTurnDeadlines(input: $i) { paused } }",
    "createWebhook": "mutation($i: CreateWebhookInput!) { createWebhook(input: $i) { webhook { id } secret } }",
    "rotateWebhookSecret": "mutation($i: RotateWebhookSecretInput!) { rotateWebhookSecret(input: $i) { secret } }",
    "finishCampaign": "mutation($i: CampaignInput!) { finishCampaign(input: $i) { status } }",
    "importCampaign": "mutation($i: ImportCampaignInput!) { importCampaign(input: $i) { campaign { id } gmToken } }",
}


async def test_every_keyed_graphql_write_answers_its_first_result_again(settings):
    """As REST's keyed writes: sent twice with one key, each mutation answers the same data and acts once (a
    second campaign, player, character, closed session, secret or finish would answer differently or be refused)."""
    async with serve(dataclasses.replace(settings, webhooks_allow_loopback=True)) as client:
        await _every_keyed_graphql_write(client)


async def _every_keyed_graphql_write(client) -> None:
    async def twice(name: str, i: dict, token: str | None, key: str) -> dict:
        body = {"query": GQL_WRITES[name], "variables": {"i": i}}
        first, again = [(await client.post("/graphql", json=body, headers=keyed(token, key))).json() for _ in range(2)]
        assert "errors" not in first and again == first, (name, first, again)
        return first["data"][name]

    made = await twice(
        "createCampaign", {"name": "Keyed", "system": "stepdice", "diceMode": "verifiable"}, None, uuid_key()
    )
    t = Table(client=client, id=made["campaign"]["id"], gm=made["gmToken"])
    c = {"campaignId": t.id}
    await twice("invitePlayer", {**c, "name": "Ola"}, t.gm, "invite")
    await twice("createCharacter", {**c, "sheet": {"stepdice": BRONA}}, t.gm, "character")
    assert (await twice("closeDiceSession", c, t.gm, "close"))["closed"]["number"] == 1
    await twice("setTurnDeadlines", {**c, "turnSeconds": 90}, t.gm, "deadlines")
    await twice("pauseTurnDeadlines", c, t.gm, "pause")
    await twice("resumeTurnDeadlines", c, t.gm, "resume")
    hook = await twice("createWebhook", {**c, "url": "http://127.0.0.1:9/hook", "view": "gm"}, t.gm, "hook")
    rotated = await twice("rotateWebhookSecret", {**c, "webhookId": hook["webhook"]["id"]}, t.gm, "rotate")
    assert rotated["secret"] != hook["secret"]
    doc = (await client.get(f"{t.base}/export", headers=bearer(t.gm))).json()
    assert (await twice("finishCampaign", c, t.gm, "finish"))["status"] == "finished"
    imported = await twice("importCampaign", {"document": doc}, None, uuid_key())
    assert imported["campaign"]["id"] != t.id
    types = [e["type"] for e in await t.events()]
    for once in ("player_invited", "character_created", "dice_session_closed"):
        assert types.count(once) == 1, (once, types)


# Moves: the key is claimed in the move's own transaction

NOTE = {"type": "gm_note", "text": "rain"}


async def notes(t: Table) -> int:
    return [e["type"] for e in await t.events()].count("gm_note")


def stall_moves(monkeypatch) -> tuple[asyncio.Event, asyncio.Event]:
    """Moves stop once their campaign is open (and a keyed move's key looked up) until `resume` is set; `entered`
    says one has got there."""
    entered, resume = asyncio.Event(), asyncio.Event()
    real = pipeline.apply

    async def stalls(*args, **kwargs):
        entered.set()
        await resume.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "apply", stalls)
    return entered, resume


async def test_copies_of_a_keyed_move_sent_together_apply_once_and_all_answer_its_reply(client):
    t = await new_table(client)
    copies = await asyncio.gather(*(t.act(NOTE, headers={"Idempotency-Key": "together"}) for _ in range(3)))
    assert [r.status_code for r in copies] == [200, 200, 200]
    assert len({r.json()["version"] for r in copies}) == 1
    assert sorted(r.headers.get("idempotent-replayed", "") for r in copies) == ["", "true", "true"]
    assert await notes(t) == 1


async def test_a_keyed_move_writes_no_claim_before_it_commits(app, client, monkeypatch):
    t = await new_table(client)
    before = await stored_rows(app)
    entered, resume = stall_moves(monkeypatch)
    move = asyncio.create_task(t.act(NOTE, headers={"Idempotency-Key": "in-the-move"}))
    await entered.wait()
    assert await stored_rows(app) == before
    resume.set()
    assert (await move).status_code == 200
    assert len(await stored_rows(app) - before) == 1


async def test_a_key_taken_by_another_write_while_a_move_runs_lets_only_one_of_them_apply(app, client, monkeypatch):
    """A roll claims its key before it runs, a move in its own transaction: the same key sent to both at once (a
    client reusing a key) applies one of them. On PostgreSQL the roll's claim commits while the move runs and the
    move's record then collides with it: the move rolls back and answers 409. On SQLite the roll's claim waits
    for the move's transaction and then finds a record of another request: 422."""
    t = await new_table(client, dice_mode="server")
    before = await stored_rows(app)
    entered, resume = stall_moves(monkeypatch)
    move = asyncio.create_task(t.act(NOTE, headers={"Idempotency-Key": "shared"}))
    await entered.wait()
    roll = asyncio.create_task(
        client.post(f"{t.base}/rolls", json={"expression": "1d6"}, headers=keyed(t.gm, "shared"))
    )
    # Until the roll's claim has committed, where it can: on SQLite it waits for the move's transaction.
    for _ in range(0 if app.state.services.is_sqlite else 50):
        if await stored_rows(app) != before:
            break
        await asyncio.sleep(0.02)
    resume.set()
    moved, rolled_ = await move, await roll
    answers = sorted([moved.status_code, rolled_.status_code])
    assert answers in ([200, 409], [200, 422]), (moved.text, rolled_.text)
    assert await notes(t) + await rolled(t) == 1


async def test_a_keyed_move_the_rules_refuse_leaves_no_record_and_its_key_free(app, client):
    t = await new_table(client)
    before = await stored_rows(app)
    h = {"Idempotency-Key": "refused"}
    nobody = {"type": "test", "character_id": "nobody", "attribute": "magic", "base_tn": 4}
    assert_problem(await t.act(nobody, headers=h), 422, "unknown_character", "action.character_id")
    assert await stored_rows(app) == before
    again = await t.act(NOTE, headers=h)
    assert again.status_code == 200 and "idempotent-replayed" not in again.headers
    assert await notes(t) == 1


async def test_a_keyed_move_retried_after_its_record_expired_runs_again(client, monkeypatch, settings):
    t = await new_table(client)
    h = {"Idempotency-Key": "expired"}
    assert (await t.act(NOTE, headers=h)).status_code == 200
    later(monkeypatch, settings.idempotency_ttl_seconds + 1)

    async def not_purged(svc):
        return None

    monkeypatch.setattr(idempotency, "_purge_now_and_then", not_purged)  # the expired row is there to take over
    again = await t.act(NOTE, headers=h)
    assert again.status_code == 200 and "idempotent-replayed" not in again.headers
    replayed = await t.act(NOTE, headers=h)
    assert replayed.headers["idempotent-replayed"] == "true" and replayed.json() == again.json()
    assert await notes(t) == 2


# When: leases and crashes


async def test_a_claim_left_by_a_stalled_request_is_taken_over_after_its_lease(client, monkeypatch, settings):
    t = await new_table(client, dice_mode="server")
    h = keyed(t.gm, "stall-1")
    entered, resume = asyncio.Event(), asyncio.Event()
    real = rolls.roll

    async def stalls(*args):
        monkeypatch.setattr(rolls, "roll", real)  # only this first call stalls
        entered.set()
        await resume.wait()
        return await real(*args)

    monkeypatch.setattr(rolls, "roll", stalls)
    stalled = asyncio.create_task(client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h))
    await entered.wait()
    assert_problem(
        await client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h),
        409,
        "request_in_progress",
        "Idempotency-Key",
    )
    later(monkeypatch, settings.idempotency_lease_seconds + 1)
    retry = await client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h)
    assert retry.status_code == 200 and "idempotent-replayed" not in retry.headers
    resume.set()
    late = await stalled
    # The stalled run lost its lease: it rolled back and answers with the outcome the key now has.
    assert late.status_code == 200 and late.json() == retry.json()
    assert await rolled(t) == 1


async def test_a_cancelled_request_frees_its_key_at_once(client, monkeypatch):
    t = await new_table(client, dice_mode="server")
    h = keyed(t.gm, "cancel-1")
    entered = asyncio.Event()
    real = rolls.roll

    async def hangs(*args):
        monkeypatch.setattr(rolls, "roll", real)
        entered.set()
        await asyncio.Event().wait()

    monkeypatch.setattr(rolls, "roll", hangs)
    hung = asyncio.create_task(client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h))
    await entered.wait()
    hung.cancel()
    with pytest.raises(asyncio.CancelledError):
        await hung
    retry = await client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h)
    assert retry.status_code == 200 and "idempotent-replayed" not in retry.headers
    assert await rolled(t) == 1


async def test_a_request_that_died_before_commit_applied_nothing_and_its_retry_runs(client, monkeypatch, settings):
    t = await new_table(client, dice_mode="server")
    h = keyed(t.gm, "dies-1")

    async def dies(s, body):
        raise ProcessDied()

    async def nothing(*args):
        return None

    real_complete = idempotency.complete
    monkeypatch.setattr(idempotency, "complete", dies)  # after the effects are flushed, before commit
    monkeypatch.setattr(idempotency, "_release", nothing)  # a dead process cleans nothing up
    with pytest.raises(ProcessDied):
        await client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h)
    monkeypatch.setattr(idempotency, "complete", real_complete)
    assert await rolled(t) == 0
    assert_problem(
        await client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h),
        409,
        "request_in_progress",
        "Idempotency-Key",
    )
    later(monkeypatch, settings.idempotency_lease_seconds + 1)
    retry = await client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h)
    assert retry.status_code == 200 and "idempotent-replayed" not in retry.headers
    assert await rolled(t) == 1


async def test_a_reply_committed_with_its_effects_survives_a_crash_right_after(client, monkeypatch):
    t = await new_table(client, dice_mode="server")
    h = keyed(t.gm, "crash-1")
    real = rolls.roll

    async def commits_then_dies(*args):
        await real(*args)
        raise ProcessDied()

    monkeypatch.setattr(rolls, "roll", commits_then_dies)
    with pytest.raises(ProcessDied):
        await client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h)
    monkeypatch.setattr(rolls, "roll", real)
    retry = await client.post(f"{t.base}/rolls", json={"expression": "3d6"}, headers=h)
    assert retry.status_code == 200 and retry.headers["idempotent-replayed"] == "true"
    assert await rolled(t) == 1
    assert retry.json()["events"][-1]["type"] == "expression_rolled"


# Retention


async def test_a_key_is_forgotten_after_the_retention_and_its_record_purged(app, client, monkeypatch, settings):
    t = await new_table(client, dice_mode="server")
    before = await stored_rows(app)
    for key in ("k-1", "k-2"):
        await client.post(f"{t.base}/rolls", json={"expression": "1d6"}, headers=keyed(t.gm, key))
    ours = await stored_rows(app) - before
    assert len(ours) == 2
    later(monkeypatch, settings.idempotency_ttl_seconds + 1)
    again = await client.post(f"{t.base}/rolls", json={"expression": "1d6"}, headers=keyed(t.gm, "k-1"))
    assert again.status_code == 200 and "idempotent-replayed" not in again.headers
    assert await rolled(t) == 3
    after = await stored_rows(app)
    assert not after & ours and len(after - before) == 1  # both purged or replaced; k-1 holds the new reply


def test_retention_and_lease_are_settings():
    assert (Settings.from_env({}).idempotency_ttl_seconds, Settings.from_env({}).idempotency_lease_seconds) == (
        86400,
        30,
    )
    env = Settings.from_env({"RULEKEEPER_IDEMPOTENCY_TTL_SECONDS": "3600", "RULEKEEPER_IDEMPOTENCY_LEASE_SECONDS": "5"})
    assert (env.idempotency_ttl_seconds, env.idempotency_lease_seconds) == (3600, 5)
    for bad in ("soon", "0", "-1", "nan"):
        with pytest.raises(ValueError, match="RULEKEEPER_IDEMPOTENCY_TTL_SECONDS"):
            Settings.from_env({"RULEKEEPER_IDEMPOTENCY_TTL_SECONDS": bad})
