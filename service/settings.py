"""Settings, read once from the environment. Secrets stay out of reprs and tracebacks."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field


class Secret(str):
    """A string that does not print itself."""

    def __repr__(self) -> str:
        return "Secret('**********')"


def async_database_url(url: str) -> str:
    """Accept the URLs people paste (postgres://, postgresql://, sqlite:///) and pick the async driver."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://") :]
    if url.startswith("postgresql://"):
        return "postgresql+asyncpg://" + url[len("postgresql://") :]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://") :]
    return url


@dataclass(frozen=True)
class Rate:
    """A token bucket: `per_second` requests sustained, up to `burst` at once."""

    per_second: float
    burst: int

    @classmethod
    def parse(cls, text: str | None, default: Rate | None) -> Rate | None:
        """`RATE/BURST` (e.g. `20/100`); `off` (or 0) turns the limit off; unset keeps the default."""
        if text is None or not text.strip():
            return default
        text = text.strip().lower()
        if text in {"off", "0", "none", "false"}:
            return None
        rate, _, burst = text.partition("/")
        try:
            parsed = cls(float(rate), int(burst) if burst else max(1, int(float(rate))))
        except ValueError:
            raise ValueError(f"a rate limit is RATE/BURST, like 20/100, or off; got {text!r}") from None
        if parsed.per_second <= 0 or parsed.burst < 1:
            raise ValueError(f"a rate limit needs a positive rate and a burst of at least 1; got {text!r}")
        return parsed


@dataclass(frozen=True)
class Settings:
    database_url: str = "sqlite+aiosqlite:///./rulekeeper.db"
    redis_url: str | None = None
    operator_key: Secret | None = field(default=None, repr=False)
    log_level: str = "INFO"
    # json: one JSON object per line (every logger, uvicorn's too); text: the same fields for a terminal; auto
    # (unset): text when the log goes to a terminal, json otherwise (service/logs.py decides).
    log_format: str = "auto"
    # When set, GET /metrics needs `Authorization: Bearer <this>`; unset, it is open like /healthz.
    metrics_token: Secret | None = field(default=None, repr=False)
    auto_migrate: bool = True
    # `rulekeeper serve` on SIGTERM: stop accepting, let requests in flight finish for at most this long.
    graceful_shutdown_seconds: int = 25
    # Seconds a table may sit unused in the live store before it expires (it is rebuilt on its next read).
    table_idle_ttl: float = 86400.0
    # A completed Idempotency-Key answers retries this long; then it is forgotten and purged.
    idempotency_ttl_seconds: float = 24 * 3600
    # A claimed key whose request died answers 409 this long; then a retry may take the claim over.
    idempotency_lease_seconds: float = 30
    # Every HTTP request body and WebSocket message, counted while it arrives.
    max_body_bytes: int = 64 * 1024
    # A campaign document sent to POST /v1/campaigns/import (its whole move log and event log).
    max_import_bytes: int = 32 * 1024 * 1024
    # Who may import a campaign document: off (nobody), operator (the operator key's holder), anyone.
    # Unset: operator when the operator key is set, else off.
    import_policy: str = "off"
    # Moves one imported document may hold: each is replayed through the engine.
    import_max_moves: int = 5000
    # GraphQL documents: nesting of selections, aliased fields, lexical tokens, and the estimated cost
    # (each field 1, a page of events as many as it may return).
    graphql_max_depth: int = 10
    graphql_max_aliases: int = 20
    graphql_max_tokens: int = 2000
    graphql_max_cost: int = 2000
    # graphql-transport-ws: operations in flight on one socket, sockets open per token (or per address).
    graphql_max_subscriptions: int = 5
    graphql_max_sockets: int = 5
    # Token buckets; None turns one off. Shared through Redis when REDIS_URL is set, else per process.
    rate_per_token: Rate | None = Rate(20, 100)
    rate_per_address: Rate | None = Rate(100, 300)
    rate_auth_failures: Rate | None = Rate(1, 10)
    # Web origins whose pages may call the API (CORS). Empty: none; ("*",): any.
    cors_origins: tuple[str, ...] = ()
    # Webhooks: loopback targets are refused unless this is set (local development and tests only).
    webhooks_allow_loopback: bool = False
    # A delivery is tried this many times (exponential backoff with jitter from the base), then marked failed.
    webhooks_max_attempts: int = 12
    webhooks_backoff_seconds: float = 10.0
    # One attempt (resolve, connect, send, status line) is given up after this long; resolving and connecting
    # alone after the shorter connect timeout, so an address that drops packets holds a send slot briefly.
    webhooks_timeout_seconds: float = 10.0
    webhooks_connect_timeout_seconds: float = 3.0
    # Sends in flight per process, and per campaign within that; an endpoint has at most one at a time (its
    # deliveries go in order). Endpoints that last timed out share at most half of the process's slots.
    webhooks_max_in_flight: int = 32
    webhooks_max_in_flight_per_campaign: int = 4
    # An endpoint that times out this many attempts in a row is disabled (the GM sees a `webhook_disabled`
    # event and sets it active again); before that each timeout backs the endpoint off further.
    webhooks_disable_after_timeouts: int = 5
    # When set, webhook signing secrets are stored encrypted under a key derived from this.
    webhooks_secrets_key: Secret | None = field(default=None, repr=False)
    # How often each replica looks for turn deadlines due for a warning or expiry.
    deadline_scan_seconds: float = 1.0
    # Default moves the clock may make in a row with nobody at the table moving; then the campaign's deadlines
    # pause (a `deadlines_paused` event says why) until the GM resumes them.
    deadline_max_defaults_in_row: int = 10
    # The web table at `/` (service/web); off for a deployment that serves only the API.
    web_table: bool = True

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Settings":
        env = dict(os.environ if env is None else env)
        op = env.get("RULEKEEPER_OPERATOR_KEY") or None

        def number(name: str, default: int) -> int:
            raw = env.get(name)
            if raw is None or not raw.strip():
                return default
            try:
                value = int(raw)
            except ValueError:
                raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
            if value < 1:
                raise ValueError(f"{name} must be at least 1, not {raw!r}")
            return value

        return cls(
            database_url=async_database_url(env.get("DATABASE_URL") or cls.database_url),
            redis_url=env.get("REDIS_URL") or None,
            operator_key=Secret(op) if op else None,
            log_level=(env.get("RULEKEEPER_LOG_LEVEL") or "INFO").upper(),
            log_format=(
                _one_of(env, "RULEKEEPER_LOG_FORMAT", ("json", "text"), "json")
                if env.get("RULEKEEPER_LOG_FORMAT")
                else cls.log_format
            ),
            metrics_token=Secret(env["RULEKEEPER_METRICS_TOKEN"]) if env.get("RULEKEEPER_METRICS_TOKEN") else None,
            auto_migrate=(env.get("RULEKEEPER_AUTO_MIGRATE", "true").lower() not in {"0", "false", "no"}),
            table_idle_ttl=float(env.get("RULEKEEPER_TABLE_IDLE_TTL_SECONDS") or cls.table_idle_ttl),
            idempotency_ttl_seconds=_seconds(env, "RULEKEEPER_IDEMPOTENCY_TTL_SECONDS", cls.idempotency_ttl_seconds),
            idempotency_lease_seconds=_seconds(
                env, "RULEKEEPER_IDEMPOTENCY_LEASE_SECONDS", cls.idempotency_lease_seconds
            ),
            graceful_shutdown_seconds=number("RULEKEEPER_GRACEFUL_SHUTDOWN_SECONDS", cls.graceful_shutdown_seconds),
            max_body_bytes=number("RULEKEEPER_MAX_BODY_BYTES", cls.max_body_bytes),
            max_import_bytes=number("RULEKEEPER_MAX_IMPORT_BYTES", cls.max_import_bytes),
            import_policy=import_policy(env.get("RULEKEEPER_IMPORT"), op is not None),
            import_max_moves=number("RULEKEEPER_IMPORT_MAX_MOVES", cls.import_max_moves),
            graphql_max_depth=number("RULEKEEPER_GRAPHQL_MAX_DEPTH", cls.graphql_max_depth),
            graphql_max_aliases=number("RULEKEEPER_GRAPHQL_MAX_ALIASES", cls.graphql_max_aliases),
            graphql_max_tokens=number("RULEKEEPER_GRAPHQL_MAX_TOKENS", cls.graphql_max_tokens),
            graphql_max_cost=number("RULEKEEPER_GRAPHQL_MAX_COST", cls.graphql_max_cost),
            graphql_max_subscriptions=number("RULEKEEPER_GRAPHQL_MAX_SUBSCRIPTIONS", cls.graphql_max_subscriptions),
            graphql_max_sockets=number("RULEKEEPER_GRAPHQL_MAX_SOCKETS", cls.graphql_max_sockets),
            rate_per_token=Rate.parse(env.get("RULEKEEPER_RATE_LIMIT_PER_TOKEN"), cls.rate_per_token),
            rate_per_address=Rate.parse(env.get("RULEKEEPER_RATE_LIMIT_PER_ADDRESS"), cls.rate_per_address),
            rate_auth_failures=Rate.parse(env.get("RULEKEEPER_RATE_LIMIT_AUTH_FAILURES"), cls.rate_auth_failures),
            cors_origins=cors_origins(env.get("RULEKEEPER_CORS_ORIGINS") or ""),
            webhooks_allow_loopback=_flag(env, "RULEKEEPER_WEBHOOKS_ALLOW_LOOPBACK", False),
            webhooks_max_attempts=_count(env, "RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS", cls.webhooks_max_attempts),
            webhooks_backoff_seconds=_seconds(env, "RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS", cls.webhooks_backoff_seconds),
            webhooks_timeout_seconds=_seconds(env, "RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS", cls.webhooks_timeout_seconds),
            webhooks_connect_timeout_seconds=_seconds(
                env, "RULEKEEPER_WEBHOOKS_CONNECT_TIMEOUT_SECONDS", cls.webhooks_connect_timeout_seconds
            ),
            webhooks_max_in_flight=_count(env, "RULEKEEPER_WEBHOOKS_MAX_IN_FLIGHT", cls.webhooks_max_in_flight),
            webhooks_max_in_flight_per_campaign=_count(
                env, "RULEKEEPER_WEBHOOKS_MAX_IN_FLIGHT_PER_CAMPAIGN", cls.webhooks_max_in_flight_per_campaign
            ),
            webhooks_disable_after_timeouts=_count(
                env, "RULEKEEPER_WEBHOOKS_DISABLE_AFTER_TIMEOUTS", cls.webhooks_disable_after_timeouts
            ),
            webhooks_secrets_key=Secret(wkey) if (wkey := env.get("RULEKEEPER_WEBHOOKS_SECRETS_KEY")) else None,
            deadline_scan_seconds=_seconds(env, "RULEKEEPER_DEADLINE_SCAN_SECONDS", cls.deadline_scan_seconds),
            deadline_max_defaults_in_row=_count(
                env, "RULEKEEPER_DEADLINE_MAX_DEFAULTS_IN_ROW", cls.deadline_max_defaults_in_row
            ),
            web_table=_flag(env, "RULEKEEPER_WEB_TABLE", cls.web_table),
        )


IMPORT_POLICIES = ("off", "operator", "anyone")


def import_policy(raw: str | None, has_operator_key: bool) -> str:
    """An import replays a whole document of someone else's history: nobody may, unless the operator says."""
    value = (raw or "").strip().lower() or ("operator" if has_operator_key else "off")
    if value not in IMPORT_POLICIES:
        raise ValueError(f"RULEKEEPER_IMPORT is one of {', '.join(IMPORT_POLICIES)}, not {value!r}")
    if value == "operator" and not has_operator_key:
        raise ValueError("RULEKEEPER_IMPORT=operator needs RULEKEEPER_OPERATOR_KEY")
    if value == "anyone" and has_operator_key:
        raise ValueError(
            "RULEKEEPER_IMPORT=anyone with RULEKEEPER_OPERATOR_KEY set: creating a campaign needs the "
            "key, so importing one does too (set operator, or off)"
        )
    return value


def _one_of(env: dict[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    value = (env.get(name) or default).strip().lower()
    if value not in choices:
        raise ValueError(f"{name} is one of {', '.join(choices)}, not {value!r}")
    return value


def _seconds(env: dict[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ValueError(f"{name} must be a number of seconds, not {raw!r}") from None
    if not 0 < value < float("inf"):
        raise ValueError(f"{name} must be a positive number of seconds, not {raw!r}")
    return value


_ORIGIN = re.compile(r"[a-z][a-z0-9+.-]*://[^/?#\s]+")


def cors_origins(raw: str) -> tuple[str, ...]:
    """`https://vtt.example.org, http://localhost:30000` -> the allow-list. A browser's Origin is
    scheme://host[:port], lower case, never with a path: anything else could never match, so it is refused
    at start rather than silently allowing nothing."""
    origins = []
    for item in raw.split(","):
        origin = item.strip().lower().removesuffix("/")
        if not origin:
            continue
        if origin != "*" and not _ORIGIN.fullmatch(origin):
            raise ValueError(
                f"RULEKEEPER_CORS_ORIGINS: {item.strip()!r} is not an origin like https://vtt.example.org "
                "(scheme://host[:port], no path), nor *"
            )
        origins.append(origin)
    return tuple(dict.fromkeys(origins))


def _flag(env: dict[str, str], name: str, default: bool) -> bool:
    raw = (env.get(name) or "").strip().lower()
    if not raw:
        return default
    if raw in {"1", "true", "yes", "on"}:
        return True
    if raw in {"0", "false", "no", "off"}:
        return False
    raise ValueError(f"{name} must be true or false, not {raw!r}")


def _count(env: dict[str, str], name: str, default: int) -> int:
    raw = env.get(name)
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {raw!r}") from None
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {raw!r}")
    return value
