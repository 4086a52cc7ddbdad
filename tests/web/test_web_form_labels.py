"""Every label of the web table's forms reads in the page's language (issue 18: pl, ru, en, switchable): the page's
own words have the same keys in every language, each field a form may show (the campaign's, every system's
character sheet and every move, and the fields nested in them) has a Polish and a Russian name, and a Polish
session shows its forms in Polish. An option's and a move's name come translated from the API (optionLabels,
actionLabels), so they are not listed here."""

from __future__ import annotations

import re

from graphql import GraphQLEnumType, GraphQLInputObjectType, get_named_type
from playwright.sync_api import expect
from tablekit import fill, invite, page_url

from service.api.graphql.schema import schema
from service.web import STATIC
from service.web.tables import state_types

LANGUAGES = ("en", "pl", "ru")


def blocks(path: str, top: str) -> dict[str, set[str]]:
    """The keys of each language's block of the object `top` in a page module."""
    text = (STATIC / path).read_text()
    body = text[text.index(f"const {top} = {{") :]
    found = {}
    for lang in LANGUAGES:
        match = re.search(rf"\n  {lang}: {{\n(.*?)\n  }},", body, flags=re.S)
        if match:
            found[lang] = keys(match.group(1))
    return found


def keys(text: str) -> set[str]:
    return set(re.findall(r'(?:^|[\s,{])(\w+): "', text))


def labels(lang: str, top: str) -> set[str]:
    """The keys of `top` in the forms' words of `lang` (static/labels/<lang>.js)."""
    text = (STATIC / "labels" / f"{lang}.js").read_text()
    return keys(text[text.index(f"export const {top} = {{") :].split("\n};", 1)[0])


def form_fields() -> tuple[set[str], set[str]]:
    """Every input field a form of the page may show, but the options of a campaign (the API names those), and
    every value its choices offer but a language's code."""
    types = schema._schema.type_map
    prefixes = [t.name.removesuffix("State") for t in state_types(schema._schema)]
    roots: list[GraphQLInputObjectType] = [types["CreateCampaignInput"]]
    for prefix in prefixes:
        roots.append(types[f"{prefix}CharacterInput"])
        roots += [get_named_type(move.type) for move in types[f"{prefix}ActionInput"].fields.values()]
    options = {f"{prefix}OptionsInput" for prefix in prefixes} | {"OptionsInput"}
    fields: set[str] = set()
    values: set[str] = set()
    seen: set[str] = set()
    todo = [t for t in roots if isinstance(t, GraphQLInputObjectType)]
    while todo:
        t = todo.pop()
        if t.name in seen or t.name in options:
            continue
        seen.add(t.name)
        for name, field in t.fields.items():
            if t.name == "CreateCampaignInput" and name == "system":
                continue  # its own picker, labelled by the page's words
            fields.add(name)
            inner = get_named_type(field.type)
            if isinstance(inner, GraphQLInputObjectType):
                todo.append(inner)
            elif isinstance(inner, GraphQLEnumType) and inner.name != "CampaignLanguage":
                values |= set(inner.values)
    return fields, values


def test_the_page_s_own_words_have_every_key_in_every_language():
    words = blocks("dom.js", "WORDS")
    assert set(words) == set(LANGUAGES)
    assert words["pl"] == words["en"] and words["ru"] == words["en"], (
        words["en"] ^ words["pl"],
        words["en"] ^ words["ru"],
    )


def test_every_field_and_value_a_form_may_show_has_a_polish_and_a_russian_name():
    needed_fields, needed_values = form_fields()
    assert len(needed_fields) > 200 and len(needed_values) > 100
    for top, needed in (("FIELDS", needed_fields), ("VALUES", needed_values)):
        for lang in ("pl", "ru"):
            names = labels(lang, top)
            assert not needed - names, (top, lang, sorted(needed - names))
            assert not names - needed, (top, lang, "no form shows", sorted(names - needed))


def test_a_polish_session_shows_its_forms_in_polish(served, new_page):
    gm, player = new_page(locale="pl-PL"), new_page(locale="pl-PL")
    gm.goto(page_url(served))
    form = gm.locator("form")
    for label in ("System gry", "Nazwa", "Tryb kości", "Język"):
        expect(form.get_by_label(label, exact=True)).to_be_visible()
    expect(form.locator("details > summary", has_text="Opcje")).to_be_visible()
    expect(form.locator("details > summary", has_text="Limity czasu tury")).to_be_visible()
    expect(form.locator(".hint")).to_have_count(0)  # the schema's English descriptions stay out of a Polish page
    fill(form, {"Nazwa": "Potyczka", "Język": "pl"})
    form.get_by_role("button", name="Utwórz kampanię").click()
    expect(gm.get_by_test_id("gm-link")).to_be_visible()
    player.goto(invite(gm, "Ala"))
    sheet = player.get_by_test_id("character-form")
    for label in ("Nazwa", "Rola", "Talenty", "Broń", "Ochrona"):
        expect(sheet.get_by_label(label, exact=True)).to_be_visible()
    roles = sheet.get_by_label("Rola", exact=True).locator("option").all_inner_texts()
    assert {"wojownik", "mag", "łotr"} <= set(roles), roles
    expect(sheet.locator("legend", has_text="Ekwipunek")).to_be_visible()
    gm.locator("#other-move").select_option("gm_note")
    gm.locator("#other-move + button").click()
    note = gm.get_by_test_id("move-gm_note")
    for label in ("Tekst", "Test (id)", "Widoczne dla graczy"):
        expect(note.get_by_label(label, exact=True)).to_be_visible()
    expect(note.get_by_role("button", name="Wykonaj ruch")).to_be_visible()
    english = player.evaluate("""() => [...document.querySelectorAll('label, legend, summary, button, h1, h2, h3')]
        .map(e => e.textContent.trim()).filter(t => /^(Name|Text|Role|Talents|Weapon|Items|Equipment)$/.test(t))""")
    assert english == [], english
    assert (
        gm.evaluate("""() => [...document.querySelectorAll('[data-testid=move-gm_note] label')]
        .map(e => e.textContent.trim()).filter(t => /^(Text|Test Id|Visible To Players)$/.test(t))""")
        == []
    )
    assert not gm.errors and not player.errors, gm.errors + player.errors
