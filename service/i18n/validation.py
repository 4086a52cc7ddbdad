"""What libraries say to players, in the service's languages: pydantic's validation messages, graphql-core's
validation and syntax errors, and the close reasons of the GraphQL WebSocket protocol.

These libraries word their messages in English only. The common ones get a template here, filled from the
error's own context (pydantic) or from the parts of the text (graphql-core, strawberry); the English text
stays the library's exact wording. Anything else is still shown in the player's language as a general
message naming what went wrong, with the library's English after it, never in English alone.
"""

import re
from typing import Any

from service.i18n.message import N_, Message, N_n, PluralMessage, PluralTemplate

TEMPLATES: dict[str, str | PluralTemplate] = {
    "missing": N_("Field required"),
    "extra_forbidden": N_("Extra inputs are not permitted"),
    "string_type": N_("Input should be a valid string"),
    "int_type": N_("Input should be a valid integer"),
    "int_from_float": N_("Input should be a valid integer, got a number with a fractional part"),
    "bool_type": N_("Input should be a valid boolean"),
    "float_type": N_("Input should be a valid number"),
    "dict_type": N_("Input should be a valid dictionary"),
    "model_type": N_("Input should be an object"),
    "list_type": N_("Input should be a valid list"),
    "string_too_short": N_n(
        "String should have at least {min_length} character",
        "String should have at least {min_length} characters",
        "min_length",
    ),
    "string_too_long": N_n(
        "String should have at most {max_length} character",
        "String should have at most {max_length} characters",
        "max_length",
    ),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "too_short": N_n(
        "List should have at least {min_length} item", "List should have at least {min_length} items", "min_length"
    ),
    "too_long": N_n(
        "List should have at most {max_length} item", "List should have at most {max_length} items", "max_length"
    ),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "union_tag_invalid": N_(
        "Input tag '{tag}' found using {discriminator} does not match any of the expected tags: {expected_tags}"
    ),
    "union_tag_not_found": N_("Unable to extract tag using discriminator {discriminator}"),
    "int_parsing": N_("Input should be a valid integer, unable to parse string as an integer"),
    "float_parsing": N_("Input should be a valid number, unable to parse string as a number"),
    "bool_parsing": N_("Input should be a valid boolean, unable to interpret input"),
    "string_unicode": N_("Input should be a valid string, unable to parse raw data as a unicode string"),
    "json_invalid": N_("Invalid JSON: {error}"),
}
# Any other pydantic error: its type names what is wrong, its English text follows.
OTHER = N_("Input is not valid ({type}): {english}")


def message(error: dict[str, Any]) -> str:
    """One pydantic error (from `errors(include_context=True)`) as a translatable message."""
    template = TEMPLATES.get(error.get("type", ""))
    ctx = {k: str(v) for k, v in (error.get("ctx") or {}).items()}
    english = str(error.get("msg", ""))
    if template is None:
        return Message.worded(english, OTHER, type=str(error.get("type", "")), english=english)
    forms = (template.singular, template.plural) if isinstance(template, PluralTemplate) else (template,)
    try:
        for form in forms:
            form.format(**ctx)
    except (KeyError, IndexError, ValueError):
        return Message.worded(english, OTHER, type=str(error.get("type", "")), english=english)
    if isinstance(template, PluralTemplate):
        count = (error.get("ctx") or {}).get(template.count_key)
        if not isinstance(count, int) or isinstance(count, bool):
            return Message.worded(english, OTHER, type=str(error.get("type", "")), english=english)
        return PluralMessage.worded_count(english, template.singular, template.plural, count, **ctx)
    return Message.worded(english, template, **ctx)


# graphql-core's validation and syntax errors (graphql/validation/rules, graphql/language/parser), each a
# pattern of its English text and the template it is rendered with; a trailing "Did you mean …?" is kept.
_SUGGESTION = r"(?P<hint>(?: Did you mean .*)?)"
GRAPHQL: list[tuple[re.Pattern[str], str]] = [
    (re.compile(pattern + _SUGGESTION + r"$", re.S), template)
    for pattern, template in [
        (
            r"Cannot query field '(?P<field>[^']*)' on type '(?P<type>[^']*)'\.",
            N_("Cannot query field '{field}' on type '{type}'.{hint}"),
        ),
        (
            r"Field '(?P<field>[^']*)' argument '(?P<argument>[^']*)' of type '(?P<type>[^']*)' is required, but it was "
            r"not provided\.",
            N_("Field '{field}' argument '{argument}' of type '{type}' is required, but it was not provided.{hint}"),
        ),
        (
            r"Unknown argument '(?P<argument>[^']*)' on field '(?P<field>[^']*)'\.",
            N_("Unknown argument '{argument}' on field '{field}'.{hint}"),
        ),
        (r"Unknown type '(?P<type>[^']*)'\.", N_("Unknown type '{type}'.{hint}")),
        (
            r"Variable '\$(?P<variable>[^']*)' of required type '(?P<type>[^']*)' was not provided\.",
            N_("Variable '${variable}' of required type '{type}' was not provided.{hint}"),
        ),
        (
            r"Variable '\$(?P<variable>[^']*)' got invalid value (?P<value>.*?); (?P<reason>.*?)",
            N_("Variable '${variable}' got invalid value {value}; {reason}{hint}"),
        ),
        (
            r"Field '(?P<field>[^']*)' of type '(?P<type>[^']*)' must have a selection of subfields\.",
            N_("Field '{field}' of type '{type}' must have a selection of subfields.{hint}"),
        ),
        (
            r"Field '(?P<field>[^']*)' must not have a selection since type '(?P<type>[^']*)' has no subfields\.",
            N_("Field '{field}' must not have a selection since type '{type}' has no subfields.{hint}"),
        ),
        (
            r"Expected value of type '(?P<type>[^']*)', found (?P<value>.*?)\.",
            N_("Expected value of type '{type}', found {value}.{hint}"),
        ),
        (r"Syntax Error: (?P<detail>.*?)", N_("Syntax Error: {detail}{hint}")),
    ]
]
GRAPHQL_OTHER = N_("The GraphQL document is not valid: {english}")


def graphql_message(english: str) -> str:
    """One of graphql-core's messages as a translatable message (English unchanged)."""
    if isinstance(english, Message):
        return english
    for pattern, template in GRAPHQL:
        found = pattern.match(english)
        if found:
            return Message.worded(english, template, **found.groupdict())
    return Message.worded(english, GRAPHQL_OTHER, english=english)


# strawberry's close reasons on the graphql-transport-ws protocol (its handlers close with these texts).
CLOSE_REASONS: dict[str, str] = {
    "Connection initialisation timeout": N_("Connection initialisation timeout"),
    "Invalid connection init payload": N_("Invalid connection init payload"),
    "Too many initialisation requests": N_("Too many initialisation requests"),
    "Forbidden": N_("Forbidden"),
    "Unauthorized": N_("Unauthorized"),
}
_SUBSCRIBER_EXISTS = re.compile(r"Subscriber for (?P<id>.*) already exists$", re.S)
MAX_CLOSE_REASON_BYTES = 123  # what a WebSocket close frame holds after its code


def close_reason(reason: str | None) -> str | None:
    """A close reason as a translatable message; plain text that is already a message stays as it is."""
    if not reason or isinstance(reason, Message):
        return reason
    if reason in CLOSE_REASONS:
        return Message(CLOSE_REASONS[reason])
    found = _SUBSCRIBER_EXISTS.match(reason)
    if found:
        return Message.worded(reason, N_("Subscriber for {id} already exists"), id=found["id"])
    return reason


def fit_close_reason(text: str) -> str:
    """Cut to what a close frame holds, on a character boundary (Polish and Russian take more bytes)."""
    raw = text.encode()
    if len(raw) <= MAX_CLOSE_REASON_BYTES:
        return text
    return raw[: MAX_CLOSE_REASON_BYTES - 3].decode(errors="ignore") + "…"
