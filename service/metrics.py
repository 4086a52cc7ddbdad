"""Prometheus metrics: what an operator watches, served at GET /metrics (service/api/httpmetrics.py).

Labels are bounded sets only: a route is its template (`/v1/campaigns/{campaign_id}/actions`), never the
path a client sent; a refusal is its stable problem code; a system is a registered rule system.

Other modules count through the objects here:
- HTTP: the outermost middleware (service/api/edge.py), per route template.
- Moves and free rolls: `@counted(MOVES)` / `@counted(ROLLS)` (service/game/moves/counting.py) on
  service.game.moves.play.act and service.game.moves.rolls.roll, with `system_is(...)` once the campaign is known.
- The live store, a cache of each table: lookups (hit or miss), tables rebuilt from the move log, and
  live-store errors (service/game/log/tables.py). With moves serialised by the campaign's row lock there is no
  compare-and-set conflict to count; a move sent with a stale If-Match is a refusal (`version_mismatch`).
- Webhooks (service/game/webhooks/delivery.py): each attempt recorded, by outcome (`delivered`, `retrying`: it will
  be tried again, `failed`: the last attempt failed and it is given up); the queue of pending deliveries and
  how long its oldest has waited, as the worker's last poll saw them.
- Subscriptions (service/game/log/feed.py): the event subscriptions open in this process.
- Turn deadlines (service/game/deadlines/worker.py): how late the most overdue warning or expiry was when the
  last scan found it (0 when nothing was overdue), the one to page on if the clock falls behind.

Each process counts its own: run one server process per pod or container (as deploy/ does) and let
Prometheus add the replicas up. `rulekeeper serve --workers N` (N > 1) runs Prometheus's multiprocess mode
instead: the workers write their numbers to files in PROMETHEUS_MULTIPROC_DIR (a temporary directory the
command makes, unless that is already set) and /metrics adds them up, so one scrape is the whole server;
each gauge says how its workers' values combine (`multiprocess_mode`).
"""

from __future__ import annotations

import os

from prometheus_client import Counter, Gauge, Histogram

REQUEST_SECONDS = Histogram(
    "rulekeeper_http_request_duration_seconds",
    "Time to answer an HTTP request, by method and route template.",
    ["method", "route"],
)
REQUESTS = Counter(
    "rulekeeper_http_requests_total",
    "HTTP requests answered, by method, route template and status code.",
    ["method", "route", "status"],
)
MOVES = Counter(
    "rulekeeper_moves_total",
    "Moves, by rule system and outcome (applied, refused, failed) with the problem code of a refusal or failure.",
    ["system", "outcome", "code"],
)
ROLLS = Counter(
    "rulekeeper_rolls_total",
    "Free dice rolls, by rule system and outcome (applied, refused, failed) with the problem code.",
    ["system", "outcome", "code"],
)
TABLE_LOOKUPS = Counter(
    "rulekeeper_table_cache_lookups_total",
    "Tables looked up in the live store: hit, or miss (rebuilt from the move log).",
    ["result"],
)
REBUILDS = Counter(
    "rulekeeper_table_rebuilds_total",
    "Tables rebuilt from the move log (snapshot plus moves), by rule system.",
    ["system"],
)
LIVE_STORE_ERRORS = Counter(
    "rulekeeper_live_store_errors_total",
    "Live-store calls that failed (the table is rebuilt or left to expire), by operation.",
    ["operation"],
)
WEBHOOK_DELIVERIES = Counter(
    "rulekeeper_webhook_deliveries_total",
    "Webhook delivery attempts, by outcome: delivered, retrying (tried "
    "again later), failed (given up after the last attempt).",
    ["outcome"],
)
WEBHOOK_QUEUE = Gauge(
    "rulekeeper_webhook_queue_depth",
    "Webhook deliveries waiting to be delivered (pending, to active endpoints), as last polled.",
    multiprocess_mode="max",
)
WEBHOOK_OLDEST_PENDING = Gauge(
    "rulekeeper_webhook_oldest_pending_seconds",
    "How long the oldest pending webhook delivery has waited, as last polled (0 with none).",
    multiprocess_mode="max",
)
SUBSCRIBERS = Gauge("rulekeeper_subscribers", "Event subscriptions open.", multiprocess_mode="livesum")
DEADLINE_LAG = Gauge(
    "rulekeeper_deadline_lag_seconds",
    "How late the most overdue turn-deadline warning or expiry was when the "
    "deadline worker's last scan found it (0 when none was overdue).",
    multiprocess_mode="max",
)

MULTIPROC_ENV = "PROMETHEUS_MULTIPROC_DIR"


def process_exited(pid: int) -> None:
    """A worker stops: its live gauges (open subscriptions) no longer count."""
    if os.environ.get(MULTIPROC_ENV):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)
