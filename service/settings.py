"""Settings, read once from the environment. Secrets stay out of reprs and tracebacks."""
from __future__ import annotations

import os
from dataclasses import dataclass, field


class Secret(str):
    """A string that does not print itself."""

    def __repr__(self) -> str:
        return "Secret('**********')"


def async_database_url(url: str) -> str:
    """Accept the URLs people paste (postgres://, postgresql://, sqlite:///) and pick the async driver."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url[len("postgres://"):]
    if url.startswith("postgresql://"):
        return "postgresql+asyncpg://" + url[len("postgresql://"):]
    if url.startswith("sqlite://"):
        return "sqlite+aiosqlite://" + url[len("sqlite://"):]
    return url


@dataclass(frozen=True)
class Settings:
    database_url: str = "sqlite+aiosqlite:///./rulekeeper.db"
    redis_url: str | None = None
    operator_key: Secret | None = field(default=None, repr=False)
    log_level: str = "INFO"
    auto_migrate: bool = True
    # Seconds a table may sit unused in the live store before it expires (it is rebuilt on its next read).
    table_idle_ttl: float = 86400.0
    # A completed Idempotency-Key answers retries this long; then it is forgotten and purged.
    idempotency_ttl_seconds: float = 24 * 3600
    # A claimed key whose request died answers 409 this long; then a retry may take the claim over.
    idempotency_lease_seconds: float = 30
    # Webhooks: loopback targets are refused unless this is set (local development and tests only).
    webhooks_allow_loopback: bool = False
    # A delivery is tried this many times (exponential backoff with jitter from the base), then marked failed.
    webhooks_max_attempts: int = 12
    webhooks_backoff_seconds: float = 10.0
    # One attempt (resolve, connect, send, status line) is given up after this long.
    webhooks_timeout_seconds: float = 10.0
    # When set, webhook signing secrets are stored encrypted under a key derived from this.
    webhooks_secrets_key: Secret | None = field(default=None, repr=False)

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "Settings":
        env = dict(os.environ if env is None else env)
        op = env.get("RULEKEEPER_OPERATOR_KEY") or None
        return cls(
            database_url=async_database_url(env.get("DATABASE_URL") or cls.database_url),
            redis_url=env.get("REDIS_URL") or None,
            operator_key=Secret(op) if op else None,
            log_level=(env.get("RULEKEEPER_LOG_LEVEL") or "INFO").upper(),
            auto_migrate=(env.get("RULEKEEPER_AUTO_MIGRATE", "true").lower() not in {"0", "false", "no"}),
            table_idle_ttl=float(env.get("RULEKEEPER_TABLE_IDLE_TTL_SECONDS") or cls.table_idle_ttl),
            idempotency_ttl_seconds=_seconds(env, "RULEKEEPER_IDEMPOTENCY_TTL_SECONDS", cls.idempotency_ttl_seconds),
            idempotency_lease_seconds=_seconds(env, "RULEKEEPER_IDEMPOTENCY_LEASE_SECONDS",
                                               cls.idempotency_lease_seconds),
            webhooks_allow_loopback=_flag(env, "RULEKEEPER_WEBHOOKS_ALLOW_LOOPBACK", False),
            webhooks_max_attempts=_count(env, "RULEKEEPER_WEBHOOKS_MAX_ATTEMPTS", cls.webhooks_max_attempts),
            webhooks_backoff_seconds=_seconds(env, "RULEKEEPER_WEBHOOKS_BACKOFF_SECONDS", cls.webhooks_backoff_seconds),
            webhooks_timeout_seconds=_seconds(env, "RULEKEEPER_WEBHOOKS_TIMEOUT_SECONDS", cls.webhooks_timeout_seconds),
            webhooks_secrets_key=Secret(wkey) if (wkey := env.get("RULEKEEPER_WEBHOOKS_SECRETS_KEY")) else None,
        )


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
