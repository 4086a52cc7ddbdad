"""The web table has no serious or critical axe-core violations (issue 18: works by keyboard, with labelled
controls, no serious axe-core violations): the GM's setup page, the GM's table with a join link and its QR code,
the player's table, and a move's form open on it.
axe-core comes inside axe-playwright-python (pinned in the test extra), so nothing is fetched."""

from __future__ import annotations

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect
from tablekit import create_campaign, create_character, invite, page_url
from test_web_table_stepdice import WARRIOR

BLOCKING = {"serious", "critical"}


def blocking_violations(page: Page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} — " + "; ".join(n["html"][:100] for n in v["nodes"][:3])
        for v in results.response["violations"]
        if v["impact"] in BLOCKING
    ]


def test_the_setup_page_the_player_s_table_and_a_move_form_pass_axe(served, new_page):
    gm, player = new_page(), new_page()
    gm.goto(page_url(served))
    expect(gm.locator("#system")).to_be_visible()
    assert not blocking_violations(gm), blocking_violations(gm)
    create_campaign(gm, page_url(served), system="stepdice", name="Skirmish", fields={"Dice Mode": "table"})
    assert not blocking_violations(gm), blocking_violations(gm)
    player.goto(invite(gm, "Ala"))
    assert not blocking_violations(gm), blocking_violations(gm)  # the join link and its QR code
    create_character(player, WARRIOR)
    expect(player.locator(".status")).to_have_text("Live")
    assert not blocking_violations(player), blocking_violations(player)
    player.locator("#other-move").select_option("attack")
    player.locator("#other-move + button").click()
    expect(player.get_by_test_id("move-attack")).to_be_visible()
    assert not blocking_violations(player), blocking_violations(player)
    assert not gm.errors and not player.errors, gm.errors + player.errors
