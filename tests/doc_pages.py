"""The documentation pages the tests read: the README and the pages it points to, each a reader's."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FRONTEND = ROOT / "docs" / "frontend.md"
OPERATOR = ROOT / "docs" / "operator.md"
CONTRIBUTING = ROOT / "docs" / "contributing.md"
RULE_SYSTEMS = ROOT / "docs" / "rule-systems.md"
BENCHMARKS = ROOT / "benchmarks" / "README.md"


def pages() -> list[Path]:
    """Every page of the documentation: the README, docs/*.md and the benchmarks' README."""
    return [README, *sorted((ROOT / "docs").glob("*.md")), BENCHMARKS]


def blocks(language: str, *from_pages: Path) -> list[str]:
    """The fenced code blocks of one language, in page order (every page when none is named)."""
    out: list[str] = []
    for page in from_pages or tuple(pages()):
        out += re.findall(rf"```{language}\n(.*?)```", page.read_text(), flags=re.S)
    return out
