"""A move sent from a page that has not seen the table's latest move is not made on a table its player never saw
(issue 18: a stale version is retried or explained, never lost): the page's `act` carries `ifMatch`, the version it
last drew; refused (`version_mismatch`, 412) it rereads the table, says the table moved on in the reader's language,
and keeps what was typed in the form, which then goes through as it is."""

from __future__ import annotations

from playwright.sync_api import Request, Route, expect
from tablekit import create_campaign, move, operation, page_url


def rereads_the_table(request: Request) -> bool:
    return operation(request)[0] == "StepDiceTable"


def fail_table_reads(route: Route) -> None:
    if rereads_the_table(route.request):
        route.abort()
    else:
        route.continue_()


def test_a_move_on_a_table_that_moved_on_is_explained_and_the_form_keeps_its_input(served, new_page):
    gm = new_page(locale="pl-PL")
    link = create_campaign(
        gm, page_url(served), system="stepdice", name="Skirmish", fields={"Język": "pl"}, name_label="Nazwa"
    )
    other_tab = new_page()
    other_tab.goto(link)
    expect(other_tab.locator(".status")).to_have_text("Live")
    # This page hears the other tab's move in its log but cannot reread the table (as over a failing network).
    gm.route("**/graphql", fail_table_reads)
    gm.locator("#other-move").select_option("gm_note")
    gm.locator("#other-move + button").click()
    form = gm.get_by_test_id("move-gm_note")
    form.get_by_label("Tekst", exact=True).fill("the door creaks")
    with gm.expect_event("requestfailed", rereads_the_table):
        move(other_tab, "gm_note", {"Text": "a crow lands"}, offered=False)
    expect(gm.locator('.log > li[data-seq="2"]')).to_contain_text("Notatka MG")
    gm.unroute("**/graphql", fail_table_reads)

    sent = []
    gm.on("request", lambda r: sent.append(operation(r)[1]["input"]["ifMatch"]) if operation(r)[0] == "Act" else None)
    form.locator("button[type=submit]").click()
    expect(form.get_by_test_id("moved-on")).to_contain_text("Przy stole coś się wydarzyło")
    expect(form.get_by_label("Tekst", exact=True)).to_have_value("the door creaks")
    form.locator("button[type=submit]").click()
    expect(gm.locator(".move-form .done")).to_be_visible()
    expect(gm.locator(".log")).to_contain_text("the door creaks")
    expect(gm.locator(".log")).to_contain_text("a crow lands")
    # The refused move was sent against the table before the other tab's move, the second against the table after it.
    first, second = sent
    assert isinstance(first, int) and isinstance(second, int) and first < second, sent
    assert not gm.errors and not other_tab.errors, gm.errors + other_tab.errors
