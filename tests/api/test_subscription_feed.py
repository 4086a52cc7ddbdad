"""The subscription feed: woken by the notifier after a commit, never polling; one read per move for all the
subscribers of a campaign; a lost notification made up by the sweep."""

from __future__ import annotations

import asyncio

from sqlalchemy import event as sa_event

from apikit import bearer, new_table
from service.game.log import feed
from service.notify import LocalNotifier
from service.store.records import pgdirect


class Recording(LocalNotifier):
    def __init__(self) -> None:
        super().__init__()
        self.announced: list[tuple[str, int]] = []

    def announce(self, campaign_id: str, seq: int) -> None:
        self.announced.append((campaign_id, seq))
        super().announce(campaign_id, seq)


class Deaf(LocalNotifier):
    """A broker that loses every notification."""

    def announce(self, campaign_id: str, seq: int) -> None:
        return None


async def drain(stream, until_seq: int, timeout: float = 5.0) -> list[dict]:
    got: list[dict] = []
    while not got or got[-1]["seq"] < until_seq:
        got.append(await asyncio.wait_for(anext(stream), timeout))
    return got


async def last_seq(t) -> int:
    return (await t.events())[-1]["seq"]


async def test_an_accepted_move_is_announced_after_commit_with_its_last_seq_and_a_refused_one_is_not(app, client):
    svc = app.state.services
    svc.notifier = Recording()
    t = await new_table(client)
    svc.notifier.announced.clear()
    refused = await t.act({"type": "end_encounter", "outcome": "victory"})
    assert refused.status_code >= 400 and svc.notifier.announced == []
    reply = await t.ok({"type": "gm_note", "text": "the bell tolls"})
    assert svc.notifier.announced == [(t.id, reply["events"][-1]["seq"])]


async def test_idle_subscribers_do_not_touch_the_database(app, client):
    svc = app.state.services
    subscribed = getattr(svc.notifier, "subscribed", None)
    if subscribed is not None:
        # Once the broker's subscription is up: its coming up sends every subscriber to look again (a read each),
        # for what was announced while it was away. On a slow machine it came up inside the quiet second.
        await asyncio.wait_for(subscribed.wait(), 10)
    t = await new_table(client)
    streams = [feed.follow(svc, t.id, t.gm, 0) for _ in range(5)]
    top = await last_seq(t)
    for s in streams:
        await drain(s, top)
    waiting = [asyncio.ensure_future(anext(s)) for s in streams]
    statements: list[str] = []
    listener = lambda *args: statements.append(args[2])  # noqa: E731
    direct = lambda sql, args: statements.append(sql)  # noqa: E731  (statements sent on asyncpg directly)
    sa_event.listen(svc.engine.sync_engine, "before_cursor_execute", listener)
    pgdirect.STATEMENT_HOOKS.append(direct)
    try:
        await asyncio.sleep(1.2)
    finally:
        sa_event.remove(svc.engine.sync_engine, "before_cursor_execute", listener)
        pgdirect.STATEMENT_HOOKS.remove(direct)
    # The webhook delivery and turn deadline workers look for due work on their own clocks; subscribers add nothing.
    assert [q for q in statements if "webhook" not in q and "turn_deadlines" not in q] == []
    for w in waiting:
        w.cancel()
    await asyncio.gather(*waiting, return_exceptions=True)
    for s in streams:
        await s.aclose()


async def test_one_move_is_read_once_for_every_subscriber_of_the_campaign(app, client, monkeypatch):
    svc = app.state.services
    t = await new_table(client)
    player_id, player = await t.invite("Ala")
    tokens = [t.gm, player, t.gm, player, t.gm]
    streams = [feed.follow(svc, t.id, tok, 0) for tok in tokens]
    top = await last_seq(t)
    for s in streams:
        await drain(s, top)
    reads = []
    real_read = feed._read

    async def counted(*args):
        reads.append(args[1:])
        return await real_read(*args)

    monkeypatch.setattr(feed, "_read", counted)
    waiting = [asyncio.ensure_future(anext(s)) for s in streams]
    await asyncio.sleep(0.05)  # every subscriber is waiting on the notifier
    seq = (await t.ok({"type": "gm_note", "text": "one read for all"}))["events"][-1]["seq"]
    got = await asyncio.wait_for(asyncio.gather(*waiting), 5)
    assert [e["seq"] for e in got] == [seq] * 5
    assert reads == [(t.id, top)]
    for s in streams:
        await s.aclose()


async def test_a_subscriber_is_served_without_a_session(app, client):
    """Who is asking and the log's pages, read as GET …/events reads them (service/store/records/pgdirect.py, and
    litedirect.py on SQLite)."""
    svc = app.state.services
    t = await new_table(client)
    _, player = await t.invite("Ala")
    sessions, opened = svc.sessions, []

    def counting(*args, **kwargs):
        opened.append(1)
        return sessions(*args, **kwargs)

    top, logs = await last_seq(t), [await t.events(), await t.events(player)]
    svc.sessions = counting
    streams = [feed.follow(svc, t.id, tok, 0) for tok in (t.gm, player)]
    assert [await drain(s, top) for s in streams] == logs
    assert opened == []
    for s in streams:
        await s.aclose()


async def swept(svc, notifier: LocalNotifier) -> LocalNotifier:
    """`notifier` in place of the app's, sweeping fast."""
    notifier.sweep_seconds = 0.2
    await notifier.start(lambda ids: feed.latest_seqs(svc, ids))
    svc.notifier = notifier
    return notifier


async def test_a_lost_notification_is_made_up_by_the_sweep(app, client):
    svc = app.state.services
    notifier = await swept(svc, Deaf())
    try:
        t = await new_table(client)
        stream = feed.follow(svc, t.id, t.gm, 0)
        await drain(stream, await last_seq(t))
        waiting = asyncio.ensure_future(anext(stream))
        seq = (await t.ok({"type": "gm_note", "text": "nobody rang"}))["events"][-1]["seq"]
        assert (await asyncio.wait_for(waiting, 5))["seq"] == seq
        await stream.aclose()
    finally:
        await notifier.close()


async def test_a_subscription_to_a_deleted_campaign_ends_at_the_sweep(app, client):
    svc = app.state.services
    notifier = await swept(svc, LocalNotifier())
    try:
        t = await new_table(client)
        stream = feed.follow(svc, t.id, t.gm, 0)
        await drain(stream, await last_seq(t))
        waiting = asyncio.ensure_future(anext(stream))
        assert (await client.post(f"{t.base}/finish", headers=bearer(t.gm))).status_code == 200
        assert (await asyncio.wait_for(waiting, 5))["type"] == "campaign_finished"
        assert (await client.delete(t.base, headers=bearer(t.gm))).status_code == 204
        try:
            await asyncio.wait_for(anext(stream), 5)
        except Exception as exc:
            assert getattr(exc, "code", None) == "unauthorized", exc
        else:
            raise AssertionError("the stream went on after its campaign was deleted")
    finally:
        await notifier.close()
