"""Hooks for the schemathesis CLI run (tests/contracts/test_schemathesis_cli.py).

Idempotency-Key: the generators draw the same few keys ("0", "") for unrelated requests, and the contract
(after the IETF Idempotency-Key draft) makes a key reused with another request a 422
`idempotency_key_reused`. A generated request cannot know which keys earlier ones spent, so each key is
suffixed with a digest of the request it rides on: the same request keeps its key (a replay, which the
service answers with the first response) and a different one gets a fresh key. Lengths stay on the side of
the 200-character limit they were drawn on, so the 400 for a long key is still exercised.

Each answer to a generated request is tallied for the test (tests/contracts/schemathesis_cli.py `served`): one
line of the phase, the status and the path's template, appended to the file RK_SERVED names. The CLI's own NDJSON
report would tell as much, but it writes every case and every body: about a tenth of the CLI's CPU in a run.
"""

from __future__ import annotations

import hashlib
import os

import schemathesis

LIMIT = 200
# Creating or importing a campaign takes keys of at least 32 characters (the key may be the only secret):
# a shorter one stays as drawn, so its 400 is still exercised.
MINIMUM = {"/v1/campaigns": 32, "/v1/campaigns/import": 32}
SERVED = os.environ.get("RK_SERVED")


@schemathesis.hook
def before_call(ctx, case, kwargs):
    key = (case.headers or {}).get("Idempotency-Key")
    if not isinstance(key, str) or not key or len(key) > LIMIT:
        return
    if len(key) < MINIMUM.get(case.formatted_path, 0):
        return
    request = repr((case.method, case.formatted_path, case.query, case.body)).encode()
    suffix = "." + hashlib.sha256(request).hexdigest()[:16]
    case.headers["Idempotency-Key"] = key[: LIMIT - len(suffix)] + suffix


@schemathesis.hook
def after_call(ctx, case, response):
    if SERVED:
        phase = case.meta.phase.name if case.meta else "unknown"
        with open(SERVED, "a") as tally:
            tally.write(f"{phase}\t{response.status_code}\t{case.path}\n")
