"""The catalogues keep up with the code: every message the code marks (`_`, `N_`, and `_n` or `N_n` for a message
that names a count) has a translation in English, Polish and Russian, a plural one every form its language has;
no message counts without plural forms ("tyle kości: 3");
no catalogue holds a fuzzy, stale or obsolete entry; a translation uses exactly its message's placeholders;
every event type the code emits has a description, every action and option a term."""

from __future__ import annotations

import ast
import string
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from service.i18n import DOMAIN, SUPPORTED, descriptions, terms
from service.i18n.message import PluralTemplate
from service.rules.registry import SYSTEMS

SERVICE = Path(__file__).resolve().parents[2] / "service"
LOCALE = SERVICE / "locale"


def _extract() -> list:
    found = extract_from_dir(
        str(SERVICE),
        method_map=[("**.py", "python")],
        keywords={"_": None, "N_": None, "_n": (1, 2), "N_n": (1, 2)},
        comment_tags=(),
        strip_comment_tags=True,
    )
    return [message for _file, _line, message, _comments, _context in found]


@pytest.fixture(scope="module")
def extracted() -> set[str]:
    return {message for message in _extract() if isinstance(message, str)}


@pytest.fixture(scope="module")
def extracted_plurals() -> set[tuple[str, str]]:
    return {tuple(message) for message in _extract() if isinstance(message, tuple)}


def catalogue(language: str):
    with (LOCALE / language / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as fh:
        return read_po(fh, locale=language, domain=DOMAIN)


def placeholders(text: str) -> set[str]:
    return {name for _lit, name, _spec, _conv in string.Formatter().parse(text) if name is not None}


def test_the_code_marks_messages(extracted):
    assert len(extracted) > 300


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_message_has_a_translation(extracted, language):
    translated = {m.id: m.string for m in catalogue(language) if m.id and not m.fuzzy}
    missing = sorted(m for m in extracted if not translated.get(m))
    assert not missing, f"{len(missing)} messages without a {language} translation, e.g. {missing[:5]}"


def test_the_code_marks_messages_that_name_a_count(extracted_plurals):
    assert len(extracted_plurals) >= 2


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_plural_message_has_every_form_of_its_language(extracted_plurals, language):
    """Polish and Russian have three forms (1 kość, 2 kości, 5 kości), English two; none may be empty, and each
    form uses only the placeholders of its message."""
    cat = catalogue(language)
    forms = {tuple(m.id): tuple(m.string) for m in cat if isinstance(m.id, tuple | list) and not m.fuzzy}
    assert cat.num_plurals == {"en": 2, "pl": 3, "ru": 3}[language]
    for message in extracted_plurals:
        got = forms.get(message)
        assert got is not None, f"{message[0]!r} has no {language} plural entry"
        assert len(got) == cat.num_plurals and all(got), f"{message[0]!r}: {language} forms {got}"
        allowed = placeholders(message[0]) | placeholders(message[1])
        assert all(placeholders(form) <= allowed for form in got), (message, got)


@pytest.mark.parametrize("language", SUPPORTED)
def test_every_plural_entry_of_a_catalogue_has_every_form(language):
    """Whatever put it there: a plural entry with a form missing or empty would show English for some counts."""
    cat = catalogue(language)
    plural = [m for m in cat if m.id and isinstance(m.id, tuple | list)]
    assert len(plural) >= 40
    short = [m.id[0] for m in plural if len(m.string) != cat.num_plurals or not all(m.string)]
    assert not short, f"{language} plural entries without every form: {short[:5]}"


# How a message that avoids plural forms gives itself away: English "(s)" and "die/dice", and in Polish and
# Russian a count named after its noun ("tyle kości: 3", "столько костей: 3").
AVOIDED = {
    "en": ("(s)", "(es)", "die/dice"),
    "pl": ("tyle ", "tylu ", "tyloma "),
    "ru": ("столько ", "стольких ", "столькими "),
}


@pytest.mark.parametrize("language", SUPPORTED)
def test_no_message_avoids_the_plural_forms_of_a_count(language):
    texts = []
    for m in catalogue(language):
        if m.id:
            texts += [str(s) for s in (m.string if isinstance(m.string, tuple | list) else [m.string])]
    avoiding = [text for text in texts if any(mark in text for mark in AVOIDED[language])]
    assert not avoiding, f"{language} messages that count without plural forms: {avoiding[:5]}"


@pytest.mark.parametrize("language", SUPPORTED)
def test_no_catalogue_holds_a_stale_fuzzy_or_obsolete_entry(extracted, extracted_plurals, language):
    cat = catalogue(language)
    fuzzy = sorted(str(m.id) for m in cat if m.id and m.fuzzy)
    stale = sorted(
        str(m.id)
        for m in cat
        if m.id and (tuple(m.id) not in extracted_plurals if isinstance(m.id, tuple | list) else m.id not in extracted)
    )
    assert not fuzzy, f"fuzzy {language} entries: {fuzzy[:5]}"
    assert not stale, f"{language} entries no code uses: {stale[:5]}"
    assert not cat.obsolete, f"obsolete {language} entries: {list(cat.obsolete)[:5]}"


@pytest.mark.parametrize("language", SUPPORTED)
def test_a_translation_keeps_its_placeholders(language):
    wrong = [
        (m.id, m.string)
        for m in catalogue(language)
        if m.id and isinstance(m.id, str) and m.string and placeholders(m.id) != placeholders(m.string)
    ]
    assert not wrong, f"{language} translations with other placeholders than their message: {wrong[:3]}"


def test_english_is_the_message_itself():
    assert all(m.string == m.id for m in catalogue("en") if m.id)


# Helpers that pass an event type on to `emit`: name -> position of the type among their arguments.
EMITTERS = {
    "emit": 0,
    "Event": 0,
    "emit_sheet": 0,
    "emit_test": 1,
    "_emit": 1,
    "announce": 1,
    "throw": 2,
    "_add_danger": 2,
}
# Types built at run time (danger_pool/lifecycle.py, trikus/equipment.py) or defaulted (stepdice/health.py).
BUILT = {"character_dead", "character_departed", "item_lost", "item_depleted", "hearts_gained"}


def emitted_types() -> set[str]:
    types = set(BUILT)
    for path in SERVICE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            arg = None
            if name in EMITTERS and len(node.args) > EMITTERS[name]:
                arg = node.args[EMITTERS[name]]
            elif name == "gain_hearts":
                arg = next((k.value for k in node.keywords if k.arg == "event"), None)
            candidates = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
            types |= {c.value for c in candidates if isinstance(c, ast.Constant) and isinstance(c.value, str)}
    for system in SYSTEMS.values():
        types |= set(getattr(system, "EventPayloads", {}) or {})
    return types


def test_every_event_type_has_a_description():
    types = emitted_types()
    assert len(types) > 200
    missing = sorted(types - set(descriptions.DESCRIPTIONS))
    assert not missing, f"event types without a description: {missing}"


def test_every_description_names_only_data_keys_or_its_type():
    """A description is formatted from the event's data: a placeholder is a key, never an expression. One that
    names a count shows the count that chooses its form."""
    bad = {}
    for event_type, d in descriptions.DESCRIPTIONS.items():
        forms = (d.singular, d.plural) if isinstance(d, PluralTemplate) else (d,)
        names = set().union(*(placeholders(form) for form in forms))
        if any(not name.isidentifier() for name in names):
            bad[event_type] = d
        if isinstance(d, PluralTemplate) and not all(d.count_key in placeholders(form) for form in forms):
            bad[event_type] = d
    assert not bad


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_every_action_and_option_has_a_term(system):
    s = SYSTEMS[system]
    assert system in terms.NAMES
    assert set(s.action_types) <= set(terms.ACTIONS[system]), set(s.action_types) - set(terms.ACTIONS[system])
    options = set(s.Options().model_dump())
    assert options <= set(terms.OPTIONS[system]), options - set(terms.OPTIONS[system])
