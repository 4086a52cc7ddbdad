"""A campaign's events as they are committed, for subscribers: the REST log's pages, read again whenever
the notifier says the campaign has moved on. No polling: an idle subscriber touches nothing; the notifier's
sweep (one query per process every few seconds) covers a notification that was lost."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncGenerator, Iterator
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from service import metrics
from service.game.log import events as log
from service.game.auth import Principal, authenticate_alone
from service.game.context import Services
from service.store.records.models import Campaign

PAGE = 100
# Only if the notifier's sweep itself stopped working would a subscriber need this: a last resort.
FALLBACK_RECHECK_SECONDS = 300.0
PROBE_CHUNK = 500

# Reads in flight, by (database, campaign, cursor). The subscribers of one campaign wait at the same
# cursor, so one move wakes them all to the same read: it is made once and each filters it for its role.
_reads: dict[tuple[AsyncEngine, str, int], asyncio.Future] = {}


async def follow(
    svc: Services, campaign_id: str, token: str | None, after: int
) -> AsyncGenerator[dict[str, Any], None]:
    """Every event after `after`, in order, as this token may see it (exactly as GET …/events shows it),
    then every new one as its transaction commits. Resuming with the last seq received loses nothing and
    repeats nothing."""
    cursor = after
    # Watch before the first read: an event committed between that read and the first wait still rings.
    with svc.notifier.watch(campaign_id) as waiter, _open_subscription():
        principal = await _who(svc, campaign_id, token)
        while True:
            page = log.page(await _rows_after(svc, campaign_id, cursor), principal, cursor, PAGE)
            for event in page["items"]:
                yield event
            cursor = page["next_after"]
            if page["has_more"]:
                continue
            if await waiter.wait(cursor, FALLBACK_RECHECK_SECONDS) != "announced":
                # A re-check also asks again who is listening: a deleted campaign ends the stream.
                principal = await _who(svc, campaign_id, token)


async def latest_seqs(svc: Services, campaign_ids: list[str]) -> dict[str, int]:
    """The notifier's sweep: each existing campaign's last seq, in one query per few hundred campaigns."""
    latest: dict[str, int] = {}
    async with svc.read() as s:
        for i in range(0, len(campaign_ids), PROBE_CHUNK):
            chunk = campaign_ids[i : i + PROBE_CHUNK]
            rows = await s.execute(select(Campaign.id, Campaign.last_seq).where(Campaign.id.in_(chunk)))
            latest.update({cid: seq for cid, seq in rows})
    return latest


async def _who(svc: Services, campaign_id: str, token: str | None) -> Principal:
    async with svc.alone() as conn:
        return await authenticate_alone(conn, token, campaign_id)


async def _rows_after(svc: Services, campaign_id: str, cursor: int) -> list[Any]:
    key = (svc.engine, campaign_id, cursor)
    read = _reads.get(key)
    if read is None:
        read = asyncio.ensure_future(_read(svc, campaign_id, cursor))
        _reads[key] = read
        read.add_done_callback(lambda done: _finished(key, done))
    # One subscriber leaving must not cancel the read the others wait on.
    return await asyncio.shield(read)


def _finished(key: tuple[AsyncEngine, str, int], read: asyncio.Future) -> None:
    _reads.pop(key, None)
    if not read.cancelled():
        read.exception()  # retrieved here, so a failure nobody waits for any more is not logged as lost


async def _read(svc: Services, campaign_id: str, cursor: int) -> list[Any]:
    """The page after `cursor`, as `GET …/events` reads it (with no session: Services.alone)."""
    async with svc.alone() as conn:
        return await log.rows_after(conn, campaign_id, cursor, PAGE)


@contextlib.contextmanager
def _open_subscription() -> Iterator[None]:
    metrics.SUBSCRIBERS.inc()
    try:
        yield
    finally:
        metrics.SUBSCRIBERS.dec()
