"""The webhook delivery worker: runs in every replica's lifespan and sends what the outbox holds.

At least once: a delivery is claimed with a lease (a compare-and-set row update; on PostgreSQL the rows are
first locked `FOR UPDATE SKIP LOCKED`, so replicas do not wait on each other), sent with no transaction open,
and its outcome recorded by compare-and-set on the lease. A process that dies mid-send leaves the lease to
run out, and the delivery is sent again. In order: only an endpoint's earliest pending delivery is ever due,
so a later event waits until the earlier one is delivered or marked failed. Failures retry with exponential
backoff and jitter until the attempt limit, then the delivery is marked failed.

Fair: a send holds a slot until its receiver answers or the timeout, so a receiver that never answers could
hold every slot. An endpoint has at most one send in flight (order above), a campaign at most
`webhooks_max_in_flight_per_campaign`, and endpoints whose last attempt timed out at most half of the
process's slots between them; free slots go round-robin across campaigns (each campaign's first due delivery
before any campaign's second). An endpoint that times out is backed off as a whole, and after
`webhooks_disable_after_timeouts` timeouts in a row it is disabled with a GM-only `webhook_disabled` event.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from dataclasses import dataclass
from typing import Any, cast
from datetime import datetime, timezone

import httpx
from sqlalchemy import CursorResult, Float, bindparam, case, delete, func, or_, select, update
from sqlalchemy.orm import aliased

from service import metrics
from service.game.webhooks import egress, outbox, signing
from service.game.log import events as log
from service.game.context import Services
from service.rules.base import Actor, Event
from service.store.records.models import Webhook, WebhookAttempt, WebhookDelivery

log_ = logging.getLogger("rulekeeper.webhooks")

POLL_SECONDS = 1.0
MAX_BACKOFF_SECONDS = 6 * 3600
RETENTION_SECONDS = 30 * 24 * 3600  # delivered and failed deliveries are listed this long, then purged
PURGE_EVERY_SECONDS = 3600
STOP_GRACE_SECONDS = 1.0
USER_AGENT = "Rulekeeper-Webhooks/1"

# Endpoints that last timed out may hold at most this share of the process's send slots.
SLOW_LANE_SHARE = 0.5
# The worker disables an endpoint with the GM's authority, as the campaign's own service events are made.
WORKER_ACTOR = Actor(role="gm")

_jitter = random.Random()


@dataclass(frozen=True)
class Job:
    """A claimed delivery and what sending it needs."""

    id: str
    lease: str
    webhook_id: str
    campaign_id: str
    slow: bool
    url: str
    payload: str
    secret: str
    previous_secret: str | None
    previous_until: float | None


def backoff(attempts: int, base: float) -> float:
    """Seconds before the next try after `attempts` failures: exponential, then half of it jittered, so
    receivers that come back are not hit by every delivery at the same instant."""
    delay = min(MAX_BACKOFF_SECONDS, base * 2 ** (attempts - 1))
    return delay / 2 + _jitter.uniform(0, delay / 2)


@dataclass(frozen=True)
class Candidate:
    """A due delivery (its endpoint's earliest pending one), before it is claimed."""

    id: str
    campaign_id: str
    slow: bool  # its endpoint's last attempt timed out


def pick(candidates: list[Candidate], room: int, per_campaign: dict[str, int], slow_room: int) -> list[Candidate]:
    """Which candidates to claim, round-robin across campaigns: each campaign's first before any campaign's
    second, in the order given (oldest due first). `per_campaign` is how many more each campaign may start
    (a campaign not named may start none); `slow_room` how many more sends the slow lane may start."""
    queues: dict[str, list[Candidate]] = {}
    for c in candidates:
        queues.setdefault(c.campaign_id, []).append(c)
    left = {cid: per_campaign.get(cid, 0) for cid in queues}
    chosen: list[Candidate] = []
    while room > 0:
        progressed = False
        for cid, queue in queues.items():
            if room <= 0:
                break
            while queue and left[cid] > 0:
                c = queue.pop(0)
                if c.slow:
                    if slow_room <= 0:
                        continue  # the slow lane is full: a healthy endpoint of this campaign may go
                    slow_room -= 1
                chosen.append(c)
                left[cid] -= 1
                room -= 1
                progressed = True
                break
        if not progressed:
            break
    return chosen


def _waiting(now: Any) -> tuple[Any, ...]:
    """A delivery that may be sent once due: pending, of an active endpoint, unleased, its endpoint's earliest."""
    d, w = WebhookDelivery, Webhook
    earlier = aliased(WebhookDelivery)
    first = (
        ~select(earlier.id)
        .where(earlier.webhook_id == d.webhook_id, earlier.status == "pending", earlier.seq < d.seq)
        .exists()
    )
    return (d.status == "pending", w.status == "active", d.lease_until <= now, first)


# When an endpoint backed off as a whole (`retry_at`) or its delivery is next due, whichever is later.
_DUE_AT = case(
    (Webhook.retry_at > WebhookDelivery.next_attempt_at, Webhook.retry_at), else_=WebhookDelivery.next_attempt_at
)
# Every poll runs these two, and nearly every poll stops there: built once, not at every poll (building them was
# about half of the worker's samples in the API tests).
_NEXT_DUE = (
    select(func.min(_DUE_AT))
    .select_from(WebhookDelivery)
    .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
    .where(*_waiting(bindparam("now", type_=Float)))
)
# A paused endpoint's deliveries wait on purpose: they are not a queue falling behind.
_QUEUE = (
    select(func.count(), func.min(WebhookDelivery.created_at))
    .join(Webhook, Webhook.id == WebhookDelivery.webhook_id)
    .where(WebhookDelivery.status == "pending", Webhook.status == "active")
)


class Worker:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        settings = svc.settings
        self.timeout = settings.webhooks_timeout_seconds
        # Longer than any one attempt (resolve, connect, send, status line) plus recording it.
        self.lease_seconds = 2 * self.timeout + 5
        self.sealer = signing.Sealer(settings.webhooks_secrets_key)
        self.client = egress.client(
            settings.webhooks_allow_loopback, self.timeout, min(settings.webhooks_connect_timeout_seconds, self.timeout)
        )
        self.max_in_flight = settings.webhooks_max_in_flight
        self.per_campaign = settings.webhooks_max_in_flight_per_campaign
        self.slow_lane = max(1, int(self.max_in_flight * SLOW_LANE_SHARE))
        self.in_flight: dict[asyncio.Task, Job] = {}
        self._loop: asyncio.Task | None = None
        self._purged_at = 0.0
        self._stopping = False

    def start(self) -> None:
        self._loop = asyncio.create_task(self._run(), name="webhook-delivery")

    async def stop(self) -> None:
        """Stop claiming, give the sends in flight a moment to finish and be recorded, then cut them off:
        a delivery cut off keeps its lease until it runs out, and is sent again then."""
        self._stopping = True
        if self._loop is not None:
            self._loop.cancel()
            await asyncio.gather(self._loop, return_exceptions=True)
        if self.in_flight:
            await asyncio.wait(set(self.in_flight), timeout=STOP_GRACE_SECONDS)
        rest = list(self.in_flight)
        for task in rest:
            task.cancel()
        await asyncio.gather(*rest, return_exceptions=True)
        await self.client.aclose()

    async def _run(self) -> None:
        while not self._stopping:
            due = self.svc.deliveries_due
            due.clear()
            wait = POLL_SECONDS
            try:
                room = self.max_in_flight - len(self.in_flight)
                if room > 0:
                    jobs, next_at = await self.claim(room)
                    for job in jobs:
                        self._spawn(job)
                    if next_at is not None:
                        wait = min(wait, max(0.01, next_at - outbox.clock()))
                await self._purge_now_and_then()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the database may be away for a while: keep polling, never die
                log_.warning("webhook delivery poll failed: %s", exc)
            # asyncio.timeout, not wait_for: on 3.11 wait_for swallows a cancel that lands as the event is set,
            # and the worker would never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await due.wait()

    def _spawn(self, job: Job) -> None:
        task = asyncio.create_task(self._deliver(job))
        self.in_flight[task] = job

        def done(t: asyncio.Task) -> None:
            self.in_flight.pop(t, None)
            self.svc.deliveries_due.set()  # the endpoint's next delivery may be due now

        task.add_done_callback(done)

    async def claim(self, room: int) -> tuple[list[Job], float | None]:
        """Lease up to `room` due deliveries (each the earliest pending one of its endpoint), fairly (`pick`);
        also say when the next one falls due, so the loop can sleep until then."""
        now = outbox.clock()
        d, w = WebhookDelivery, Webhook
        # A read first: when nothing is due, no write transaction (SQLite's one writer stays free).
        async with self.svc.read() as s:
            next_at = await s.scalar(_NEXT_DUE, {"now": now})
            depth, oldest = (await s.execute(_QUEUE)).one()
        metrics.WEBHOOK_QUEUE.set(depth)
        metrics.WEBHOOK_OLDEST_PENDING.set(_age(oldest))
        if next_at is None or next_at > now:
            return [], next_at
        busy: dict[str, int] = {}
        slow_busy = 0
        for job in self.in_flight.values():
            busy[job.campaign_id] = busy.get(job.campaign_id, 0) + 1
            slow_busy += job.slow
        full = [cid for cid, n in busy.items() if n >= self.per_campaign]
        conditions = [*_waiting(now), _DUE_AT <= now]
        if full:
            conditions.append(d.campaign_id.not_in(full))
        if slow_busy >= self.slow_lane:
            conditions.append(w.timeouts_in_row == 0)
        # Each campaign's due deliveries numbered, oldest first: ordered by that number, the list starts with
        # every campaign's first, so no campaign's backlog keeps another's out of the candidates.
        rank = func.row_number().over(partition_by=d.campaign_id, order_by=(d.next_attempt_at, d.seq))
        ranked = (
            select(
                d.id, d.campaign_id, d.next_attempt_at, d.seq, (w.timeouts_in_row > 0).label("slow"), rank.label("rank")
            )
            .select_from(d)
            .join(w, w.id == d.webhook_id)
            .where(*conditions)
            .subquery()
        )
        async with self.svc.read() as s:
            rows = (
                await s.execute(
                    select(ranked.c.id, ranked.c.campaign_id, ranked.c.slow)
                    .where(ranked.c.rank <= self.per_campaign)
                    .order_by(ranked.c.rank, ranked.c.next_attempt_at, ranked.c.seq)
                    .limit(room * self.per_campaign)
                )
            ).all()
        candidates = [Candidate(r.id, r.campaign_id, bool(r.slow)) for r in rows]
        allowed = {c.campaign_id: self.per_campaign - busy.get(c.campaign_id, 0) for c in candidates}
        chosen = pick(candidates, room, allowed, self.slow_lane - slow_busy)
        if not chosen:
            return [], None
        jobs: list[Job] = []
        async with self.svc.write() as s:
            ids = [c.id for c in chosen]
            if not self.svc.is_sqlite:  # another replica's claim in progress: leave those rows to it
                ids = list(await s.scalars(select(d.id).where(d.id.in_(ids)).with_for_update(skip_locked=True)))
            for delivery_id in ids:
                lease = secrets.token_hex(16)
                # Chosen from a read: re-checked here, so a webhook paused or disabled meanwhile gets nothing.
                taken = await s.execute(
                    update(d)
                    .where(
                        d.id == delivery_id,
                        d.status == "pending",
                        d.lease_until <= now,
                        d.webhook_id.in_(select(w.id).where(w.status == "active")),
                    )
                    .values(lease=lease, lease_until=now + self.lease_seconds)
                    .execution_options(synchronize_session=False)
                )
                # An UPDATE answers with a CursorResult, which execute() is not typed to return.
                if cast(CursorResult[Any], taken).rowcount != 1:
                    continue
                row = (
                    await s.execute(
                        select(
                            d.webhook_id,
                            d.campaign_id,
                            d.payload,
                            w.url,
                            w.secret,
                            w.previous_secret,
                            w.previous_until,
                            w.timeouts_in_row,
                        )
                        .join(w, w.id == d.webhook_id)
                        .where(d.id == delivery_id)
                    )
                ).one()
                jobs.append(
                    Job(
                        delivery_id,
                        lease,
                        row.webhook_id,
                        row.campaign_id,
                        row.timeouts_in_row > 0,
                        row.url,
                        row.payload,
                        row.secret,
                        row.previous_secret,
                        row.previous_until,
                    )
                )
        return jobs, None

    def _secrets(self, job: Job) -> list[str]:
        out = [self.sealer.open(job.webhook_id, job.secret)]
        if job.previous_secret and job.previous_until and job.previous_until > outbox.clock():
            out.append(self.sealer.open(job.webhook_id, job.previous_secret))
        return out

    async def _deliver(self, job: Job) -> None:
        started = outbox.clock()
        t0 = time.perf_counter()
        code: int | None = None
        error: str | None = None
        timed_out = False
        try:
            sign_with = self._secrets(job)
            headers = {
                "content-type": "application/json",
                "user-agent": USER_AGENT,
                **signing.headers(job.id, int(outbox.clock()), job.payload, sign_with),
            }
            async with asyncio.timeout(self.timeout):
                # The receiver's body is never read: the status line is the whole answer.
                async with self.client.stream("POST", job.url, content=job.payload.encode(), headers=headers) as r:
                    code = r.status_code
            if 300 <= code < 400:
                error = f"the receiver answered {code}; redirects are not followed"
            elif not 200 <= code < 300:
                error = f"the receiver answered {code}"
        except signing.SecretUnavailable as exc:
            error = str(exc)
        except TimeoutError:
            error, timed_out = f"no answer within {self.timeout:g}s", True
        except httpx.PoolTimeout as exc:  # our own pool was busy: no fault of the receiver's
            error = f"PoolTimeout: {exc}" if str(exc) else "PoolTimeout"
        except httpx.TimeoutException as exc:
            error, timed_out = (f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__), True
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        duration_ms = int((time.perf_counter() - t0) * 1000)
        try:
            await self.record(job, started, duration_ms, code, error, timed_out)
        except Exception as exc:  # unrecorded: the lease runs out and the delivery is sent again
            log_.warning("could not record webhook delivery %s: %s", job.id, exc)

    async def record(
        self, job: Job, started: float, duration_ms: int, code: int | None, error: str | None, timed_out: bool = False
    ) -> None:
        now = outbox.clock()
        async with self.svc.write() as s:
            d = await s.get(WebhookDelivery, job.id)
            # Loaded before anything changes: the flush then writes the endpoint's row before the delivery's, in
            # the order the webhook API's own writes take them, so the two never wait on each other.
            w = await s.get(Webhook, job.webhook_id)
            if d is None or w is None:  # its webhook was deleted meanwhile
                return
            s.add(
                WebhookAttempt(
                    delivery_id=job.id,
                    started_at=started,
                    duration_ms=duration_ms,
                    response_code=code,
                    error=error[:300] if error else None,
                )
            )
            if d.lease != job.lease:  # our lease ran out and another worker took the delivery over
                return
            d.lease, d.lease_until = "", 0.0
            if code is not None and (w.timeouts_in_row or w.retry_at):
                w.timeouts_in_row, w.retry_at = 0, 0.0
            elif timed_out:
                await self._timed_out(s, w, now, error or "")
            d.last_attempt_at, d.last_response_code, d.last_duration_ms = started, code, duration_ms
            d.last_error = error[:300] if error else None
            if d.status != "pending":
                return
            if error is None:
                d.status, d.delivered_at = "delivered", now
                metrics.WEBHOOK_DELIVERIES.labels("delivered").inc()
                return
            d.attempts += 1
            if d.attempts >= self.svc.settings.webhooks_max_attempts:
                d.status = "failed"
                metrics.WEBHOOK_DELIVERIES.labels("failed").inc()
                log_.info("webhook delivery %s failed after %d attempts: %s", job.id, d.attempts, error)
            else:
                d.next_attempt_at = now + backoff(d.attempts, self.svc.settings.webhooks_backoff_seconds)
                metrics.WEBHOOK_DELIVERIES.labels("retrying").inc()

    async def _timed_out(self, s, w: Webhook, now: float, error: str) -> None:
        """Back the whole endpoint off (its later deliveries wait too); at the limit, disable it and tell the GM.
        Any answer, even an error status, resets the count: only silence holds a send slot for long."""
        w.timeouts_in_row += 1
        w.retry_at = now + backoff(w.timeouts_in_row, self.svc.settings.webhooks_backoff_seconds)
        if w.timeouts_in_row < self.svc.settings.webhooks_disable_after_timeouts or w.status != "active":
            return
        w.status = "disabled"
        campaign = await log.locked_campaign(s, w.campaign_id)
        if campaign is None:
            return
        log.append(
            s,
            campaign,
            [
                Event(
                    "webhook_disabled",
                    {
                        "webhook_id": w.id,
                        "description": w.description,
                        "timeouts_in_row": w.timeouts_in_row,
                        "last_error": error[:300],
                    },
                    visibility="gm",
                )
            ],
            WORKER_ACTOR,
        )
        log_.info("webhook %s disabled after %d timeouts in a row", w.id, w.timeouts_in_row)

    async def _purge_now_and_then(self) -> None:
        now = outbox.clock()
        if now - self._purged_at < PURGE_EVERY_SECONDS:
            return
        self._purged_at = now
        d = WebhookDelivery
        cutoff = now - RETENTION_SECONDS
        async with self.svc.write() as s:
            await s.execute(
                delete(d)
                .where(
                    d.status.in_(("delivered", "failed")),
                    or_(d.last_attempt_at < cutoff, d.last_attempt_at.is_(None)),
                    d.next_attempt_at < cutoff,
                )
                .execution_options(synchronize_session=False)
            )


def _age(created: datetime | None) -> float:
    if created is None:
        return 0.0
    if created.tzinfo is None:  # SQLite hands it back without its zone; it was stored in UTC
        created = created.replace(tzinfo=timezone.utc)
    return max(0.0, (datetime.now(timezone.utc) - created).total_seconds())
