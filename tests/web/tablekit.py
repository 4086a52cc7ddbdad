"""Playing the web table as a person does: by labels, buttons and links, never by calling the API."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Page, Request, expect


def operation(request: Request) -> tuple[str | None, dict]:
    """The GraphQL operation a request of the page carries, and its variables."""
    if not request.url.endswith("/graphql") or request.method != "POST":
        return None, {}
    body = json.loads(request.post_data or "{}")
    return body.get("operationName"), body.get("variables") or {}


def page_url(origin: str, api: str | None = None) -> str:
    return f"{origin}/?api={api}" if api else f"{origin}/"


def fill(scope, values: dict[str, Any]) -> None:
    """Fill fields by their labels: text and numbers typed, choices picked by their shown text, booleans ticked;
    a dict opens the optional group of that label (a <details>) and fills it, a list of dicts adds a row per item,
    a list of names ticks each name's box in the group of that label."""
    for label, value in values.items():
        if isinstance(value, list) and all(isinstance(v, str) for v in value):
            # Things the table names (a team, the invited characters): a box ticked for each, by its name.
            group = scope.locator(f"fieldset:has(> legend:text-is({json.dumps(label)}))")
            for name in value:
                group.get_by_label(name, exact=True).check()
            continue
        if isinstance(value, list):
            add = scope.get_by_role("button", name=f"+ {label}", exact=True)
            rows = add.locator("xpath=..").locator(":scope > .rows > fieldset.row")
            for item in value:
                add.click()
                fill(rows.last, item)
            continue
        if isinstance(value, dict):
            scope.locator("details > summary", has_text=label).first.click()
            fill(scope, value)
            continue
        field = scope.get_by_label(label, exact=True)
        select = field.evaluate("e => e.tagName") == "SELECT"
        if isinstance(value, bool) and select:
            # A yes/no the rules may decide (an optional Boolean) is a choice of three: picked by its value.
            field.select_option(value=json.dumps(value))
        elif isinstance(value, bool):
            field.set_checked(value)
        elif select:
            field.select_option(label=str(value))
        else:
            field.fill(str(value))


def create_campaign(
    page: Page, url: str, *, system: str, name: str, fields: dict[str, Any] | None = None, name_label: str = "Name"
) -> str:
    """The GM sets up a campaign; returns the GM's own link (the page moves to it). The labels are the page's
    language's (a Polish page's campaign name is "Nazwa")."""
    page.goto(url)
    page.locator("#system").select_option(value=system)
    # The fields are drawn again for the system picked, after a round trip: typed before that, into the form
    # being replaced, a value could be lost.
    expect(page.locator(f"#campaign-fields[data-system='{system}']")).to_be_attached()
    fill(page.locator("form"), {name_label: name, **(fields or {})})
    page.locator("form button[type=submit]").click()
    expect(page.get_by_test_id("gm-link")).to_be_visible()
    return page.url


def invite(page: Page, name: str) -> str:
    """The GM invites a player; returns the join link the GM would send them."""
    page.locator("#invite-name").fill(name)
    page.locator("#invite-name").press("Enter")
    link = page.get_by_test_id("join-link").filter(has_text=name).locator("a")
    expect(link).to_be_visible()
    return link.get_attribute("href")


def create_character(page: Page, values: dict[str, Any]) -> None:
    form = page.get_by_test_id("character-form")
    fill(form, values)
    form.locator("button[type=submit]").click()
    try:
        expect(form).to_have_count(0)
    except AssertionError:
        raise AssertionError(f"no character: {form.locator('.problem').all_inner_texts()}") from None


def move(
    page: Page, move_type: str, values: dict[str, Any] | None = None, *, dice: str | None = None, offered: bool = True
) -> str:
    """Make a move: by its button, which the table offers once the page has heard the move before (so waited for),
    or, not `offered`, picked from every move of the system. Returns what the page says the move did; fails with
    the refusal it shows."""
    form = page.get_by_test_id(f"move-{move_type}")
    # The list of moves is drawn again when the table moves on: a choice made just before is made once more.
    for attempt in range(1 if offered else 3):
        if offered:
            page.locator(f'button[data-move="{move_type}"]').click()
        else:
            page.locator("#other-move").select_option(value=move_type)
            page.locator("#other-move + button").click()
        try:
            expect(form).to_be_visible(timeout=3_000 if not offered and attempt < 2 else None)
            break
        except AssertionError:
            if offered or attempt == 2:
                raise AssertionError(f"no form for {move_type}: {page.locator('main').inner_text()}") from None
    fill(form, values or {})
    if dice is not None:
        form.locator("#dice").fill(dice)
    form.locator("button[type=submit]").click()
    outcome = page.locator(".move-form .done, .move-form .problem").first
    expect(outcome).to_be_visible()
    text = outcome.inner_text()
    assert "problem" not in (outcome.get_attribute("class") or ""), f"{move_type} refused: {text}"
    return text


def assert_fits_a_phone_and_every_control_is_labelled(page: Page) -> None:
    """No sideways scrolling at the page's width, and every field, choice and button has a name a screen reader
    reads out (a <label>, an aria-label, or a button's own text)."""
    width = page.viewport_size["width"]
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    unlabelled = page.evaluate("""() => [...document.querySelectorAll('input, select, textarea, button')]
        .filter(e => !(e.labels?.length || e.getAttribute('aria-label') || (e.tagName === 'BUTTON' && e.textContent.trim())))
        .map(e => e.outerHTML.slice(0, 120))""")
    assert not unlabelled, unlabelled
