"""Every `code` an error may carry (a REST problem's `code`, a GraphQL error's `extensions.code`): a closed set,
published as the GraphQL enum `ErrorCode` so a client can switch over it exhaustively.

The rule systems list theirs (`service/rules/<system>/errors.py: CODES`); the rest are the service's and the
transports' own, below. tests/contracts/test_error_codes.py finds every code the source raises and fails when
one is missing here.
"""

from __future__ import annotations

import importlib

from service.rules.registry import SYSTEMS

SERVICE = (
    # the request: transports, limits, authentication
    "bad_request",
    "invalid_json",
    "invalid_input",
    "invalid_query",
    "invalid_header",
    "invalid_if_match",
    "invalid_idempotency_key",
    "payload_too_large",
    "unsupported_media_type",
    "method_not_allowed",
    "not_found",
    "unauthorized",
    "operator_key_required",
    "metrics_token_required",
    "rate_limited",
    "too_many_subscriptions",
    "service_unavailable",
    "internal_error",
    # GraphQL documents
    "graphql_parse_failed",
    "graphql_validation_failed",
    "query_too_large",
    "query_too_deep",
    "query_too_complex",
    "query_too_costly",
    "too_many_aliases",
    # campaigns, moves and their preconditions
    "campaign_active",
    "campaign_finished",
    "system_mismatch",
    "version_mismatch",
    "idempotency_key_reused",
    "request_in_progress",
    "no_turn_deadlines",
    "deadline_expired",
    "export_reveals_secrets",
    "import_diverged",
    "import_invalid",
    "unknown_character",
    "import_disabled",
    "import_forged",
    "import_unverified",
    "import_too_long",
    "import_in_progress",
    "nothing_to_undo",
    "undo_past_character",
    "not_verifiable",
    "session_open",
    "session_already_rolling",
    # who may do what (service/rules/base.py)
    "forbidden",
    "gm_only",
    "not_your_character",
    "character_not_yours",
    # dice and free rolls
    "dice_required",
    "dice_unused",
    "dice_not_allowed",
    "die_out_of_range",
    "expression_invalid",
    "expression_too_large",
    "repeated_test",
    "deck_in_play",
    # webhooks
    "invalid_webhook_url",
    "webhook_url_forbidden",
    "webhook_url_unresolvable",
    "too_many_webhooks",
)


def _engine_codes() -> set[str]:
    out: set[str] = set()
    for system_id in SYSTEMS:
        out |= set(importlib.import_module(f"service.rules.{system_id}.errors").CODES)
    return out


ERROR_CODES: tuple[str, ...] = tuple(sorted(set(SERVICE) | _engine_codes()))
