"""A die once drawn is never discarded: a command the service refuses after drawing dice still logs them, with
the refusal, for the whole table, and moves the verifiable counter on; what can be refused from the request
alone is refused before the first die. Otherwise an error that depends on a face shows that face to the
caller, and the next command draws the very same die (the probe `1/((1d20-1)//10) + 1/0`).

No rule engine refuses after rolling today; the moves here that do come from a stand-in engine, because the
application layer must hold the rule for any engine that ever will."""

from __future__ import annotations

from typing import Any

import pytest
from apikit import assert_problem, bearer, new_table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from service.dice import verifiable
from service.rules.base import RuleViolation
from service.rules.registry import SYSTEMS

EXPLODES_PAST_BUDGET = "100d2e2"  # 100 dice planned, every 2 explodes: stopped at the budget, 2**-100 otherwise


async def roll(t, expression: str, token: str | None = None, **body: Any):
    return await t.client.post(
        f"{t.base}/rolls", json={"expression": expression, **body}, headers=bearer(token or t.gm)
    )


async def counter(t) -> int:
    r = await t.client.get(f"{t.base}/dice-sessions", headers=bearer(t.gm))
    return [s for s in r.json()["items"] if s["status"] == "open"][0]["rolls"]


async def last_seq(t) -> int:
    return (await t.events())[-1]["seq"]


async def close_and_verify(t, token: str | None = None) -> dict[str, Any]:
    r = await t.client.post(f"{t.base}/dice-sessions/current/close", headers=bearer(t.gm))
    assert r.status_code == 200, r.text
    number = r.json()["closed"]["number"]
    doc = (await t.client.get(f"{t.base}/dice-sessions/{number}/verification", headers=bearer(token or t.gm))).json()
    return doc


def stand_in_engine(monkeypatch, fail: Exception | None, dice: list[tuple[int, str]]) -> None:
    """Step Dice, except that every move first draws these dice (sides, visibility), then raises `fail`."""
    system = SYSTEMS["stepdice"]
    real = type(system).apply

    def apply(state, action, actor, source):
        for sides, visibility in dice:
            source.roll(sides, purpose="stand-in", visibility=visibility)
        if fail is not None:
            raise fail
        return real(system, state, action, actor, source)

    monkeypatch.setattr(system, "apply", apply)


NOTE = {"type": "gm_note", "text": "the bridge creaks"}


async def test_a_roll_stopped_by_the_dice_budget_logs_its_dice_and_moves_the_counter_on(client):
    t = await new_table(client, dice_mode="verifiable")
    r = await roll(t, EXPLODES_PAST_BUDGET)
    body = assert_problem(r, 422, "expression_too_large", "expression")
    [event] = body["dice_consumed"]
    assert event["type"] == "dice_rolled" and event["data"]["refused"]["code"] == "expression_too_large"
    assert [d["seq"] for d in event["data"]["dice"]] == list(range(100))
    assert await counter(t) == 100
    nxt = (await roll(t, "1d6")).json()["dice"]
    assert [d["seq"] for d in nxt] == [100]  # the next die, not the first refused one again
    logged = [e for e in await t.events() if e["type"] == "dice_rolled"]
    assert logged[0]["seq"] == event["seq"] and logged[0]["data"]["refused"]["detail"] == body["detail"]
    doc = await close_and_verify(t)
    assert doc["report"]["ok"] is True and doc["report"]["gaps"] == []
    assert sorted(d["seq"] for d in doc["rolls"]) == list(range(101))


async def test_graphql_says_which_dice_a_refused_roll_consumed(client):
    t = await new_table(client, dice_mode="verifiable")
    q = """mutation($i: RollInput!) { rollExpression(input: $i) { total } }"""
    r = await client.post(
        "/graphql",
        json={"query": q, "variables": {"i": {"campaignId": t.id, "expression": EXPLODES_PAST_BUDGET}}},
        headers=bearer(t.gm),
    )
    [error] = r.json()["errors"]
    assert error["extensions"]["code"] == "expression_too_large"
    assert len(error["extensions"]["dice_consumed"][0]["data"]["dice"]) == 100 and await counter(t) == 100


async def test_a_player_sees_the_dice_of_their_own_refused_roll_in_the_log(client):
    t = await new_table(client, dice_mode="server")
    _, player = await t.invite("Ala")
    body = assert_problem(await roll(t, EXPLODES_PAST_BUDGET, player), 422, "expression_too_large")
    faces = [d["face"] for d in body["dice_consumed"][0]["data"]["dice"]]
    assert len(faces) == 100 and all(d["source"] == "server" for d in body["dice_consumed"][0]["data"]["dice"])
    logged = [e for e in await t.events(player) if e["type"] == "dice_rolled"]
    assert [d["face"] for d in logged[0]["data"]["dice"]] == faces and logged[0]["actor"]["role"] == "player"


@pytest.mark.parametrize(
    "expression",
    ["1/((1d20-1)//10)", "1/((1d20-1)//10) + 1/0", "1d20 + 1/(2-2)", "1d20 % (1d6 - 1)", "1d6 // (1d20 < 5)"],
)
async def test_a_divisor_that_may_be_zero_is_refused_before_any_die(client, expression):
    t = await new_table(client, dice_mode="verifiable")
    body = assert_problem(await roll(t, expression), 422, "expression_invalid", "expression")
    assert "dice_consumed" not in body and await counter(t) == 0
    assert not [e for e in await t.events() if e["type"] == "dice_rolled"]


async def test_the_probe_that_succeeded_on_a_high_face_is_refused_whatever_the_face(client):
    t = await new_table(client, dice_mode="table")
    for face in (3, 15):  # before: 422 on 1-10, 200 on 11-20, so each request read one die
        assert_problem(await roll(t, "1/((1d20-1)//10)", dice=[face]), 422, "expression_invalid", "expression")


async def test_a_refused_table_mode_roll_logs_nothing(client):
    """Table dice are the players' own, thrown in plain sight: the service drew nothing to account for."""
    t = await new_table(client, dice_mode="table")
    assert_problem(await roll(t, "1d6", dice=[3, 4]), 422, "dice_unused", "dice")
    assert not [e for e in await t.events() if e["type"] == "dice_rolled"]


async def test_a_move_refused_after_drawing_dice_logs_them_with_the_refusal(client, monkeypatch):
    t = await new_table(client, dice_mode="verifiable")
    stand_in_engine(monkeypatch, RuleViolation("insufficient_mana", "no Mana left"), [(20, "all"), (6, "all")])
    mark = await last_seq(t)
    r = await t.act(NOTE)
    body = assert_problem(r, 409, "insufficient_mana", "action")
    [event] = body["dice_consumed"]
    assert event["data"]["purpose"] == "gm_note" and [d["seq"] for d in event["data"]["dice"]] == [0, 1]
    assert event["data"]["refused"] == {"code": "insufficient_mana", "status": 409, "detail": "no Mana left"}
    assert (await t.state())["version"] == 0  # the move itself changed nothing
    assert [e["type"] for e in await t.events(after=mark)] == ["dice_rolled"]
    assert await counter(t) == 2
    monkeypatch.undo()
    assert [d["seq"] for d in (await roll(t, "1d20")).json()["dice"]] == [2]
    doc = await close_and_verify(t)
    assert doc["report"]["ok"] is True and [d["seq"] for d in doc["rolls"]] == [0, 1, 2]


async def test_gm_only_dice_of_a_refused_move_stay_hidden_from_players(client, monkeypatch):
    t = await new_table(client, dice_mode="verifiable")
    _, player = await t.invite("Ala")
    stand_in_engine(monkeypatch, RuleViolation("wrong_phase", "not now"), [(8, "gm"), (54, "sealed")])
    mark = await last_seq(t)
    body = assert_problem(await t.act(NOTE), 409, "wrong_phase")
    gm_view = {e["seq"]: e["data"] for e in body["dice_consumed"]}
    hidden, shown = await t.events(player, after=mark)
    assert hidden["data"] == {
        "purpose": "gm_note",
        "dice_session": 1,
        "hidden": "gm",
        "refused": {"code": "wrong_phase", "status": 409, "detail": "not now"},
    }
    assert gm_view[hidden["seq"]]["dice"][0]["sides"] == 8
    # A sealed die of a refused move is shown at once: the order it would have fixed never took effect.
    assert shown["data"]["dice"][0]["sides"] == 54 and shown["data"] == gm_view[shown["seq"]]


async def test_an_engine_failure_after_drawing_dice_still_logs_them(client, monkeypatch):
    t = await new_table(client, dice_mode="verifiable")
    stand_in_engine(monkeypatch, KeyError("secret-internals"), [(12, "all")])
    with pytest.raises(KeyError):  # the in-process client re-raises what the service answered with a 500
        await t.act(NOTE)
    [event] = [e for e in await t.events() if e["type"] == "dice_rolled"]
    assert event["data"]["refused"]["code"] == "internal_error" and "secret" not in event["data"]["refused"]["detail"]
    assert await counter(t) == 1


# ----- the property: whatever is refused, the session's dice are gapless, and no die is ever drawn twice -----

COMMANDS = st.one_of(
    st.tuples(
        st.just("roll"),
        st.sampled_from(
            [
                "1d20",
                "4d6kh3",
                "2d10e10",
                "1d6 + 1d8 - 2",
                "(1d6, 1d8)kh1",
                EXPLODES_PAST_BUDGET,
                "50d2e2",
                "1/((1d20-1)//10)",
                "1d20/(1d6-1)",
                "1d4 + 1/0",
                "2d6+",
                "1d%",
                "1000d6",
            ]
        ),
    ),
    st.tuples(
        st.just("move"),
        st.lists(st.tuples(st.sampled_from([4, 6, 20, 54]), st.sampled_from(["all", "gm", "sealed"])), max_size=4),
        st.booleans(),
    ),
)


@pytest.mark.stand_in_engine  # its moves draw dice the real engine would not: no replay check afterwards
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(commands=st.lists(COMMANDS, min_size=1, max_size=8))
async def test_every_drawn_die_is_in_the_verification_document_once(client, commands):
    t = await new_table(client, dice_mode="verifiable")
    _, player = await t.invite("Ala")
    seen: list[dict[str, Any]] = []  # every die any response showed
    system = SYSTEMS["stepdice"]
    real = type(system).apply
    try:
        for command in commands:
            if command[0] == "roll":
                r = await roll(t, command[1], player)
                body = r.json()
                seen += (
                    body["dice"]
                    if r.status_code == 200
                    else [d for e in body.get("dice_consumed", []) for d in e["data"].get("dice", [])]
                )
                continue
            _, dice, fails = command

            def apply(state, action, actor, source, dice=dice, fails=fails):
                for sides, visibility in dice:
                    source.roll(sides, purpose="stand-in", visibility=visibility)
                if fails:
                    raise RuleViolation("wrong_phase", "not now")
                return real(system, state, action, actor, source)

            system.apply = apply
            r = await t.act(NOTE)
            del system.apply
            assert r.status_code == (409 if fails else 200), r.text
            events = r.json().get("dice_consumed", []) if fails else r.json()["events"]
            seen += [d for e in events if e["type"] == "dice_rolled" for d in e["data"].get("dice", [])]
    finally:
        system.__dict__.pop("apply", None)
    drawn = await counter(t)
    doc = await close_and_verify(t, player)
    seqs = [d["seq"] for d in doc["rolls"]]
    assert doc["report"]["ok"] is True and doc["report"]["duplicates"] == []
    assert sorted(seqs) == list(range(drawn))  # gapless, refused dice included
    assert len({d["seq"] for d in seen}) == len(seen)  # no die was ever shown twice
    by_seq = {d["seq"]: d for d in doc["rolls"]}
    for d in seen:  # and every die shown is the logged one
        assert (by_seq[d["seq"]]["sides"], by_seq[d["seq"]]["face"]) == (d["sides"], d["face"])
        assert verifiable.derive_face(doc["seed"], doc["client_seed"], d["seq"], d["sides"])[0] == d["face"]
