"""Text fields of the rule systems' requests: checked as sent, then trimmed (and case-folded where a name is
matched without regard to case).

The constraints apply to the value as the client sent it, so the document states exactly what is accepted:
pydantic's `strip_whitespace` checks lengths and patterns after trimming, which made `"  "` valid by the
document (minLength 1) yet refused, and `"D6"` refused by the document's pattern yet accepted.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import AfterValidator, StringConstraints

# What str.strip() removes, spelled out: a JSON Schema validator's `\s` (ECMA-262) is another set.
WHITESPACE = r"\t\n\x0b\x0c\r\x1c-\x1f \x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000"
NOT_BLANK = f"[^{WHITESPACE}]"


def _normalize(case: Literal["lower", "upper"] | None):
    def normalize(value: str) -> str:
        value = value.strip()
        return value.lower() if case == "lower" else value.upper() if case == "upper" else value

    return normalize


def trimmed(
    max_length: int | None,
    *,
    min_length: int = 1,
    pattern: str = NOT_BLANK,
    case: Literal["lower", "upper"] | None = None,
) -> Any:
    """A string of min..max characters matching `pattern` (by default: not only whitespace), as sent; the
    rules receive it trimmed, and lower- or upper-cased when `case` says so."""
    return Annotated[
        str,
        StringConstraints(min_length=min_length, max_length=max_length, pattern=pattern),
        AfterValidator(_normalize(case)),
    ]
