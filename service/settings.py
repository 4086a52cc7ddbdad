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
    # Web origins whose pages may call the API (CORS). Empty: none; ("*",): any.
    cors_origins: tuple[str, ...] = ()

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
            cors_origins=cors_origins(env.get("RULEKEEPER_CORS_ORIGINS") or ""),
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
            raise ValueError(f"RULEKEEPER_CORS_ORIGINS: {item.strip()!r} is not an origin like https://vtt.example.org "
                             "(scheme://host[:port], no path), nor *")
        origins.append(origin)
    return tuple(dict.fromkeys(origins))
