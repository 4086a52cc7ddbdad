"""Webhook signing secrets are sealed by default (service/game/webhooks/sealkey.py): the embedded default keeps a
generated key in a file beside its SQLite database, owner read/write only, and keeps using it across restarts;
PostgreSQL without RULEKEEPER_WEBHOOKS_SECRETS_KEY does not start; secrets an earlier release stored in plain
text still sign, and are sealed at the next start."""

from __future__ import annotations

import stat
from pathlib import Path

import httpx
import pytest
from sqlalchemy import select

from service.app import create_app
from service.game.webhooks import sealkey
from service.game.webhooks.signing import Sealer, SecretUnavailable, new_secret
from service.settings import Settings
from service.store.records.models import Webhook

OFF = {"rate_per_token": None, "rate_per_address": None, "rate_auth_failures": None}


def embedded(tmp_path: Path, **kw) -> Settings:
    return Settings(
        database_url=f"sqlite+aiosqlite:///{tmp_path}/rulekeeper.db", webhooks_allow_loopback=True, **OFF, **kw
    )


async def register_one(app) -> tuple[str, str]:
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        r = await c.post("/v1/campaigns", json={"name": "Hooks", "system": "stepdice"})
        gm = {"Authorization": f"Bearer {r.json()['gm_token']}"}
        r = await c.post(
            f"/v1/campaigns/{r.json()['campaign']['id']}/webhooks", json={"url": "http://127.0.0.1:9/hook"}, headers=gm
        )
        assert r.status_code == 201, r.text
        return r.json()["id"], r.json()["secret"]


async def stored_secret(app, hook_id: str) -> str:
    async with app.state.services.read() as s:
        return (await s.scalar(select(Webhook).where(Webhook.id == hook_id))).secret


async def test_the_embedded_default_seals_with_a_key_kept_beside_its_database_owner_only(tmp_path):
    app = create_app(embedded(tmp_path))
    async with app.router.lifespan_context(app):
        hook_id, secret = await register_one(app)
        stored = await stored_secret(app, hook_id)
    assert stored.startswith("aesgcm:") and secret.removeprefix("whsec_") not in stored
    key_file = tmp_path / "rulekeeper.db.webhooks-key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = key_file.read_text().strip()
    assert len(key) == 64 and Sealer(key).open(hook_id, stored) == secret
    with pytest.raises(SecretUnavailable):  # a copy of the database alone opens nothing
        Sealer(None).open(hook_id, stored)


async def test_a_restart_keeps_the_key_and_still_opens_what_it_sealed(tmp_path):
    app = create_app(embedded(tmp_path))
    async with app.router.lifespan_context(app):
        hook_id, secret = await register_one(app)
    key = (tmp_path / "rulekeeper.db.webhooks-key").read_text()
    again = create_app(embedded(tmp_path))
    async with again.router.lifespan_context(again):
        assert again.state.services.settings.webhooks_secrets_key == key.strip()
        assert Sealer(key.strip()).open(hook_id, await stored_secret(again, hook_id)) == secret
    assert (tmp_path / "rulekeeper.db.webhooks-key").read_text() == key


def test_a_key_file_others_could_read_is_made_owner_only(tmp_path):
    path = tmp_path / "rulekeeper.db.webhooks-key"
    path.write_text("ab" * 32 + "\n")
    path.chmod(0o644)
    resolved = sealkey.resolve(Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/rulekeeper.db"))
    assert resolved.webhooks_secrets_key == "ab" * 32 and stat.S_IMODE(path.stat().st_mode) == 0o600


def test_the_setting_wins_over_the_key_file_and_memory_databases_get_a_key_of_their_own(tmp_path):
    given = Settings(database_url=f"sqlite+aiosqlite:///{tmp_path}/rulekeeper.db", webhooks_secrets_key="set")
    assert sealkey.resolve(given).webhooks_secrets_key == "set"
    assert not (tmp_path / "rulekeeper.db.webhooks-key").exists()
    memory = sealkey.resolve(Settings(database_url="sqlite+aiosqlite:///:memory:"))
    assert len(memory.webhooks_secrets_key) == 64


async def test_postgresql_without_the_key_does_not_start(postgres_database):
    app = create_app(Settings(database_url=postgres_database, **OFF))
    with pytest.raises(sealkey.SealingKeyMissing, match="RULEKEEPER_WEBHOOKS_SECRETS_KEY"):
        async with app.router.lifespan_context(app):
            pass


async def test_secrets_an_earlier_release_stored_plain_still_sign_and_are_sealed_at_the_next_start(tmp_path):
    app = create_app(embedded(tmp_path))
    async with app.router.lifespan_context(app):
        hook_id, _ = await register_one(app)
        plain, previous = new_secret(), new_secret()
        async with app.state.services.write() as s:  # as a release that stored secrets plain left them
            hook = await s.scalar(select(Webhook).where(Webhook.id == hook_id))
            hook.secret, hook.previous_secret = "plain:" + plain, "plain:" + previous
    again = create_app(embedded(tmp_path))
    async with again.router.lifespan_context(again):
        key = again.state.services.settings.webhooks_secrets_key
        async with again.state.services.read() as s:
            hook = await s.scalar(select(Webhook).where(Webhook.id == hook_id))
        assert hook.secret.startswith("aesgcm:") and hook.previous_secret.startswith("aesgcm:")
        assert Sealer(key).open(hook_id, hook.secret) == plain
        assert Sealer(key).open(hook_id, hook.previous_secret) == previous


def test_the_deployment_reads_the_key_from_its_secret():
    import yaml

    deploy = Path(__file__).resolve().parents[2] / "deploy"
    example = yaml.safe_load((deploy / "secret.example.yaml").read_text())
    assert "RULEKEEPER_WEBHOOKS_SECRETS_KEY" in example["stringData"]
    (deployment,) = [
        d
        for d in yaml.safe_load_all((deploy / "k8s" / "deployment.yaml").read_text())
        if d and d["kind"] == "Deployment"
    ]
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    assert {"secretRef": {"name": example["metadata"]["name"]}} in container["envFrom"]
    assert "RULEKEEPER_WEBHOOKS_SECRETS_KEY" in (deploy / "overlays" / "example" / "kustomization.yaml").read_text()
