"""The operator page's webhook receiver runs as written: the service (a real process) delivers to it, it verifies
with `standardwebhooks` and prints the event; a request it cannot verify gets a 400."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import httpx
from doc_pages import OPERATOR, blocks
from webhook_receiver import Service, free_port


def documented_receiver() -> str:
    (block,) = [b for b in blocks("python", OPERATOR) if "standardwebhooks" in b]
    return block


def test_the_documented_receiver_verifies_and_prints_a_delivery(tmp_path):
    service = Service(f"sqlite:///{tmp_path}/rulekeeper.db").start()
    port = free_port()
    script = tmp_path / "receiver.py"
    script.write_text(documented_receiver())
    receiver = None
    try:
        r = httpx.post(f"{service.url}/v1/campaigns", json={"name": "Docs", "system": "stepdice"})
        campaign, gm = r.json()["campaign"]["id"], r.json()["gm_token"]
        auth = {"Authorization": f"Bearer {gm}"}
        hook = httpx.post(
            f"{service.url}/v1/campaigns/{campaign}/webhooks",
            headers=auth,
            json={"url": f"http://127.0.0.1:{port}/", "event_types": ["gm_note"]},
        ).json()
        receiver = subprocess.Popen(
            [sys.executable, str(script)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env={**os.environ, "RULEKEEPER_WEBHOOK_SECRET": hook["secret"], "PORT": str(port)},
        )
        lines: list[str] = []
        threading.Thread(target=lambda: lines.extend(receiver.stdout), daemon=True).start()
        deadline = time.monotonic() + 10
        while True:
            try:
                forged = httpx.post(
                    f"http://127.0.0.1:{port}/",
                    content=b'{"type": "gm_note"}',
                    headers={
                        "webhook-id": "msg_x",
                        "webhook-timestamp": str(int(time.time())),
                        "webhook-signature": "v1,AAAA",
                    },
                )
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "the documented receiver did not start"
                time.sleep(0.05)
        assert forged.status_code == 400
        httpx.post(
            f"{service.url}/v1/campaigns/{campaign}/actions",
            headers=auth,
            json={"action": {"type": "gm_note", "text": "hello, table"}},
        )
        while not lines:
            assert time.monotonic() < deadline + 10, "no delivery reached the documented receiver"
            time.sleep(0.05)
        assert lines[0].split()[1] == "gm_note" and "hello, table" in lines[0]
        deliveries = httpx.get(
            f"{service.url}/v1/campaigns/{campaign}/webhooks/{hook['id']}/deliveries", headers=auth
        ).json()["items"]
        assert deliveries[0]["last_response_code"] in (None, 204)
    finally:
        if receiver is not None:
            receiver.kill()
        service.stop()
