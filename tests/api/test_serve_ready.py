"""`rulekeeper serve` says "serving on" when the service answers, not before its startup (migrations) ran."""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
from pathlib import Path


from service.cli import _SaysWhenReady
from serve_process import START_SECONDS, answers
from webhook_receiver import free_port


async def test_serving_on_is_logged_only_after_the_startup_completes(caplog):
    migrated = asyncio.Event()

    async def app(scope, receive, send):
        await receive()  # lifespan.startup
        await migrated.wait()  # the migrations, however long they take
        await send({"type": "lifespan.startup.complete"})

    sent = []

    async def send(message):
        sent.append(message)

    async def receive():
        return {"type": "lifespan.startup"}

    with caplog.at_level(logging.INFO, logger="rulekeeper"):
        running = asyncio.create_task(_SaysWhenReady(app, "serving on test")({"type": "lifespan"}, receive, send))
        await asyncio.sleep(0.05)
        assert "serving on test" not in caplog.text and sent == []
        migrated.set()
        await running
    assert sent == [{"type": "lifespan.startup.complete"}]
    assert caplog.text.count("serving on test") == 1


def test_the_service_answers_as_soon_as_it_says_serving_on(tmp_path):
    port = free_port()
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp_path}/rulekeeper.db", "RULEKEEPER_LOG_LEVEL": "INFO"}
    env.pop("REDIS_URL", None)
    exe = Path(sys.executable).with_name("rulekeeper")
    proc = subprocess.Popen(
        [str(exe), "serve", "--port", str(port)], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True
    )
    try:
        deadline = time.monotonic() + START_SECONDS
        for line in proc.stderr:
            if "serving on" in line:
                break
            assert time.monotonic() < deadline, "no serving on"
        said = time.monotonic()
        assert answers(f"http://127.0.0.1:{port}/readyz", said + START_SECONDS, every=0.01)
        # Only the socket's bind lies between the startup's end and the first answer.
        assert time.monotonic() - said < 1.0
        assert f"http://127.0.0.1:{port}" in line
    finally:
        proc.terminate()
        proc.wait(timeout=10)
