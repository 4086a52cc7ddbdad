"""How many examples a property test tries: its count is written for hypothesis's default profile (100
examples), and a profile with fewer scales every test's count alike.

CI and a plain `pytest` run the full counts. The `dev` profile tries a fifth of them, for the quick engine loop:
    .venv/bin/python -m pytest -q -p no:cacheprovider -n 2 -m "not processes" --hypothesis-profile=dev \
        tests/rules tests/dice
A test's own `@settings(max_examples=...)` would override any profile, so the counts go through `examples()`.
"""

from __future__ import annotations

from hypothesis import settings

FULL = 100  # hypothesis's default max_examples: the profile every count here is written for
settings.register_profile("dev", max_examples=FULL // 5)


def examples(full: int) -> int:
    """`full` under the default profile; proportionally fewer (at least one) under a profile with fewer."""
    return max(1, full * settings.default.max_examples // FULL)
