"""The webhook delivery worker: runs in every replica's lifespan and sends what the outbox holds.

At least once: a delivery is claimed with a lease (a row update; on PostgreSQL `FOR UPDATE SKIP LOCKED`,
so replicas never claim one delivery together), sent with no transaction open, and its outcome recorded
by compare-and-set on the lease. A process that dies mid-send leaves the lease to run out, and the
delivery is sent again. In order: only an endpoint's earliest pending delivery is ever due, so a later
event waits until the earlier one is delivered or marked failed. Failures retry with exponential backoff
and jitter until the attempt limit, then the delivery is marked failed. Each send is a task of its own
with a timeout, so a slow or dead receiver delays neither the API nor the other endpoints.
"""
from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from dataclasses import dataclass
from datetime import datetime, timezone

import httpx
from sqlalchemy import delete, func, or_, select, update
from sqlalchemy.orm import aliased

from service import metrics
from service.game import egress, outbox, signing
from service.game.context import Services
from service.store.records.models import Webhook, WebhookAttempt, WebhookDelivery

log = logging.getLogger("rulekeeper.webhooks")

POLL_SECONDS = 1.0
MAX_IN_FLIGHT = 32
MAX_BACKOFF_SECONDS = 6 * 3600
RETENTION_SECONDS = 30 * 24 * 3600      # delivered and failed deliveries are listed this long, then purged
PURGE_EVERY_SECONDS = 3600
STOP_GRACE_SECONDS = 1.0
USER_AGENT = "Rulekeeper-Webhooks/1"

_jitter = random.Random()


@dataclass(frozen=True)
class Job:
    """A claimed delivery and what sending it needs."""

    id: str
    lease: str
    webhook_id: str
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


class Worker:
    def __init__(self, svc: Services) -> None:
        self.svc = svc
        settings = svc.settings
        self.timeout = settings.webhooks_timeout_seconds
        # Longer than any one attempt (resolve, connect, send, status line) plus recording it.
        self.lease_seconds = 2 * self.timeout + 5
        self.sealer = signing.Sealer(settings.webhooks_secrets_key)
        self.client = egress.client(settings.webhooks_allow_loopback, self.timeout)
        self.in_flight: set[asyncio.Task] = set()
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
                room = MAX_IN_FLIGHT - len(self.in_flight)
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
                log.warning("webhook delivery poll failed: %s", exc)
            # asyncio.timeout, not wait_for: on 3.11 wait_for swallows a cancel that lands as the event is set,
            # and the worker would never stop.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(wait):
                    await due.wait()

    def _spawn(self, job: Job) -> None:
        task = asyncio.create_task(self._deliver(job))
        self.in_flight.add(task)

        def done(t: asyncio.Task) -> None:
            self.in_flight.discard(t)
            self.svc.deliveries_due.set()   # the endpoint's next delivery may be due now

        task.add_done_callback(done)

    async def claim(self, room: int) -> tuple[list[Job], float | None]:
        """Lease up to `room` due deliveries (each the earliest pending one of its endpoint); also say when
        the next one falls due, so the loop can sleep until then."""
        now = outbox.clock()
        d, w = WebhookDelivery, Webhook
        earlier = aliased(WebhookDelivery)
        first = ~select(earlier.id).where(earlier.webhook_id == d.webhook_id, earlier.status == "pending",
                                          earlier.seq < d.seq).exists()
        waiting = (d.status == "pending", w.status == "active", d.lease_until <= now, first)
        # A read first: when nothing is due, no write transaction (SQLite's one writer stays free).
        async with self.svc.read() as s:
            next_at = await s.scalar(select(func.min(d.next_attempt_at)).join(w, w.id == d.webhook_id).where(*waiting))
            # A paused endpoint's deliveries wait on purpose: they are not a queue falling behind.
            depth, oldest = (await s.execute(select(func.count(), func.min(d.created_at)).join(w, w.id == d.webhook_id)
                                             .where(d.status == "pending", w.status == "active"))).one()
        metrics.WEBHOOK_QUEUE.set(depth)
        metrics.WEBHOOK_OLDEST_PENDING.set(_age(oldest))
        if next_at is None or next_at > now:
            return [], next_at
        query = (select(d.id).join(w, w.id == d.webhook_id).where(*waiting, d.next_attempt_at <= now)
                 .order_by(d.next_attempt_at, d.seq).limit(room))
        if not self.svc.is_sqlite:
            query = query.with_for_update(of=d, skip_locked=True)
        jobs: list[Job] = []
        async with self.svc.write() as s:
            for delivery_id in list(await s.scalars(query)):
                lease = secrets.token_hex(16)
                taken = await s.execute(
                    update(d).where(d.id == delivery_id, d.status == "pending", d.lease_until <= now)
                    .values(lease=lease, lease_until=now + self.lease_seconds)
                    .execution_options(synchronize_session=False))
                if taken.rowcount != 1:
                    continue
                row = (await s.execute(
                    select(d.webhook_id, d.payload, w.url, w.secret, w.previous_secret, w.previous_until)
                    .join(w, w.id == d.webhook_id).where(d.id == delivery_id))).one()
                jobs.append(Job(delivery_id, lease, row.webhook_id, row.url, row.payload, row.secret,
                                row.previous_secret, row.previous_until))
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
        try:
            sign_with = self._secrets(job)
            headers = {"content-type": "application/json", "user-agent": USER_AGENT,
                       **signing.headers(job.id, int(outbox.clock()), job.payload, sign_with)}
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
            error = f"no answer within {self.timeout:g}s"
        except httpx.HTTPError as exc:
            error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
        duration_ms = int((time.perf_counter() - t0) * 1000)
        try:
            await self.record(job, started, duration_ms, code, error)
        except Exception as exc:  # unrecorded: the lease runs out and the delivery is sent again
            log.warning("could not record webhook delivery %s: %s", job.id, exc)

    async def record(self, job: Job, started: float, duration_ms: int, code: int | None, error: str | None) -> None:
        now = outbox.clock()
        async with self.svc.write() as s:
            d = await s.get(WebhookDelivery, job.id)
            if d is None:   # its webhook was deleted meanwhile
                return
            s.add(WebhookAttempt(delivery_id=job.id, started_at=started, duration_ms=duration_ms,
                                 response_code=code, error=error[:300] if error else None))
            if d.lease != job.lease:   # our lease ran out and another worker took the delivery over
                return
            d.lease, d.lease_until = "", 0.0
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
                log.info("webhook delivery %s failed after %d attempts: %s", job.id, d.attempts, error)
            else:
                d.next_attempt_at = now + backoff(d.attempts, self.svc.settings.webhooks_backoff_seconds)
                metrics.WEBHOOK_DELIVERIES.labels("retrying").inc()

    async def _purge_now_and_then(self) -> None:
        now = outbox.clock()
        if now - self._purged_at < PURGE_EVERY_SECONDS:
            return
        self._purged_at = now
        d = WebhookDelivery
        cutoff = now - RETENTION_SECONDS
        async with self.svc.write() as s:
            await s.execute(delete(d).where(d.status.in_(("delivered", "failed")),
                                            or_(d.last_attempt_at < cutoff, d.last_attempt_at.is_(None)),
                                            d.next_attempt_at < cutoff)
                            .execution_options(synchronize_session=False))


def _age(created: datetime | None) -> float:
    if created is None:
        return 0.0
    if created.tzinfo is None:      # SQLite hands it back without its zone; it was stored in UTC
        created = created.replace(tzinfo=timezone.utc)
    return max(0.0, (datetime.now(timezone.utc) - created).total_seconds())
