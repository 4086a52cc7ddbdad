"""Languages: the service answers in Polish, Russian or English.

`message` holds the lazy message (pure, usable by the rule engines); `catalogue` reads the gettext
catalogues under service/locale; `negotiate` picks a language for a request; `context` carries that
choice through one request; `render` turns a message into the chosen language at the API boundary.
"""

from __future__ import annotations

SUPPORTED: tuple[str, ...] = ("en", "pl", "ru")
DEFAULT = "en"
DOMAIN = "rulekeeper"
