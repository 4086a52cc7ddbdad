"""pydantic's validation messages in the service's languages.

pydantic words its messages in English only. The common error types get a template here, filled from the
error's own context; the English text stays pydantic's exact wording, and an error type without a template
keeps it in every language.
"""
from __future__ import annotations

from typing import Any

from service.i18n.message import N_, Message

TEMPLATES: dict[str, str] = {
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
    "string_too_short": N_("String should have at least {min_length} characters"),
    "string_too_long": N_("String should have at most {max_length} characters"),
    "string_pattern_mismatch": N_("String should match pattern '{pattern}'"),
    "too_short": N_("List should have at least {min_length} items"),
    "too_long": N_("List should have at most {max_length} items"),
    "greater_than": N_("Input should be greater than {gt}"),
    "greater_than_equal": N_("Input should be greater than or equal to {ge}"),
    "less_than": N_("Input should be less than {lt}"),
    "less_than_equal": N_("Input should be less than or equal to {le}"),
    "literal_error": N_("Input should be {expected}"),
    "enum": N_("Input should be {expected}"),
    "union_tag_invalid": N_("Input tag '{tag}' found using {discriminator} does not match any of the expected "
                            "tags: {expected_tags}"),
    "union_tag_not_found": N_("Unable to extract tag using discriminator {discriminator}"),
}


def message(error: dict[str, Any]) -> str:
    """One pydantic error (from `errors(include_context=True)`) as a translatable message."""
    template = TEMPLATES.get(error.get("type", ""))
    ctx = {k: str(v) for k, v in (error.get("ctx") or {}).items()}
    english = str(error.get("msg", ""))
    if template is None:
        return english
    try:
        template.format(**ctx)
    except (KeyError, IndexError, ValueError):
        return english
    return Message.worded(english, template, **ctx)
