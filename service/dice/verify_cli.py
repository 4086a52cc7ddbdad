"""`rulekeeper verify`: check a revealed verifiable-dice session without trusting the service.

    rulekeeper verify session.json
    rulekeeper verify - < session.json
    rulekeeper verify --url https://rulekeeper.example/v1/campaigns/42/dice-sessions/1/verification --token rk_pl_...

The document is {"seed", "commitment", "client_seed", "rolls": [{"seq", "sides", "face"}, ...]};
other keys are ignored. Exit status, as with diff and grep: 0 every die checks out, 1 the
session does not verify, 2 the document could not be read or is malformed.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import IO

import httpx

from service.dice.verifiable import VerificationReport, verify_rolls

OK, FAILED, TROUBLE = 0, 1, 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulekeeper verify",
        description="Recompute every die of a revealed verifiable-dice session.",
    )
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("document", nargs="?", help="path to the JSON document, or - for stdin")
    source.add_argument("--url", help="GET the document from a running service")
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--token",
        default=os.environ.get("RULEKEEPER_TOKEN"),
        help="bearer token for --url (default: $RULEKEEPER_TOKEN); any token of the campaign works",
    )
    parser.add_argument("--timeout", type=float, default=10.0, help="seconds to wait for --url")
    return parser


def run_verify(
    argv: list[str],
    *,
    stdin: IO[str] | None = None,
    stdout: IO[str] | None = None,
    stderr: IO[str] | None = None,
    transport: httpx.BaseTransport | None = None,
) -> int:
    """Parse argv, verify, print; returns the exit status. Streams and transport are for tests."""
    stdin, stdout, stderr = stdin or sys.stdin, stdout or sys.stdout, stderr or sys.stderr
    try:
        args = build_parser().parse_args(argv)
    except SystemExit as exit_:  # --help or a usage error: argparse has printed why
        return exit_.code if isinstance(exit_.code, int) else TROUBLE
    try:
        document = _load(args, stdin, transport)
        report = verify_rolls(
            _text(document, "seed"),
            _text(document, "commitment"),
            _text(document, "client_seed", default=""),
            _rolls(document),
        )
    except (OSError, ValueError, httpx.HTTPError) as error:
        # json.JSONDecodeError is a ValueError; a bad seed or roll entry raises ValueError.
        print(f"cannot verify: {error}", file=stderr)
        return TROUBLE
    if args.json:
        print(json.dumps(report.to_dict(), indent=2), file=stdout)
    else:
        print(format_report(report), file=stdout)
    return OK if report.ok else FAILED


def _load(args: argparse.Namespace, stdin: IO[str], transport: httpx.BaseTransport | None) -> dict:
    if args.url:
        with httpx.Client(transport=transport, timeout=args.timeout, follow_redirects=True) as client:
            headers = {"Accept": "application/json"}
            if args.token:
                headers["Authorization"] = f"Bearer {args.token}"
            response = client.get(args.url, headers=headers)
            response.raise_for_status()
            document = response.json()
    elif args.document == "-":
        document = json.load(stdin)
    else:
        with open(args.document, encoding="utf-8") as handle:
            document = json.load(handle)
    if not isinstance(document, dict):
        raise ValueError("the document must be a JSON object")
    return document


def _text(document: dict, key: str, default: str | None = None) -> str:
    value = document.get(key, default)
    if value is None and default is not None:
        value = default
    if not isinstance(value, str):
        raise ValueError(f"the document needs {key!r} as a string")
    return value


def _rolls(document: dict) -> list[dict]:
    rolls = document.get("rolls")
    if not isinstance(rolls, list):
        raise ValueError("the document needs 'rolls' as a list")
    return rolls


def format_report(report: VerificationReport) -> str:
    lines = [
        f"dice checked: {report.count}",
        f"commitment:   {'ok' if report.commitment_ok else 'DOES NOT MATCH the seed'}",
    ]
    for m in report.mismatches:
        lines.append(f"mismatch:     seq {m.seq}: d{m.sides} shows {m.face}, the seed gives {m.expected}")
    for seq in report.duplicates:
        lines.append(f"duplicate:    seq {seq} appears more than once")
    if report.gaps:
        more = " (and more, list truncated)" if report.gaps_truncated else ""
        lines.append(f"gaps:         {len(report.gaps)} seq missing: {_ranges(report.gaps)}{more}")
    lines.append("result:       " + ("OK, every die verifies" if report.ok else "FAILED"))
    return "\n".join(lines)


def _ranges(numbers: list[int]) -> str:
    """[3, 4, 5, 9] -> "3-5, 9": a long gap stays one line."""
    parts: list[str] = []
    start = prev = numbers[0]
    for n in numbers[1:] + [None]:
        if n is not None and n == prev + 1:
            prev = n
            continue
        parts.append(str(start) if start == prev else f"{start}-{prev}")
        if n is not None:
            start = prev = n
    return ", ".join(parts)
