"""Retries back off exponentially from the base, with half of each delay random, up to a cap."""

from __future__ import annotations

from service.game.webhooks.delivery import MAX_BACKOFF_SECONDS, backoff


def test_each_retry_waits_between_half_and_all_of_a_doubling_delay():
    for attempts, full in ((1, 10), (2, 20), (3, 40), (6, 320)):
        delays = [backoff(attempts, 10) for _ in range(200)]
        assert all(full / 2 <= d <= full for d in delays)
        assert len(set(delays)) > 100  # jittered, so receivers that come back are not hit in step


def test_the_delay_is_capped():
    assert all(MAX_BACKOFF_SECONDS / 2 <= backoff(40, 10) <= MAX_BACKOFF_SECONDS for _ in range(50))
