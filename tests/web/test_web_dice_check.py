"""Verifiable dice checked in the browser (docs/frontend.md, Verifiable dice): the page's own recomputation agrees with the
algorithm's published test vectors, and a closed session's dice are verified from the player's page."""

from __future__ import annotations

from playwright.sync_api import expect
from tablekit import create_campaign, create_character, invite, move, page_url

WARRIOR = {
    "Name": "Brona",
    "Role": "warrior",
    "Talents": "Tough, Loud",
    "Weapon": "sword",
    "Items": "rope, torch, flask",
}


def test_the_pages_recomputation_gives_the_algorithms_test_vectors(served, new_page):
    page = new_page()
    page.goto(page_url(served))
    got = page.evaluate("""async () => {
        const v = await import("./static/verify.js");
        const seed = "00".repeat(32);
        const faces = [];
        for (const c of [0, 1, 2]) faces.push(Number((await v.deriveFace(seed, "table", c, 20)).face));
        const big = await v.deriveFace(seed, "table", 3, (2n ** 63n + 1n).toString());
        return {commitment: await v.commitmentOf(seed), faces, big: big.face.toString(), draws: big.draws};
    }""")
    assert got == {
        "commitment": "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925",
        "faces": [14, 14, 6],
        "big": "3094589869364614925",
        "draws": 3,
    }


def test_a_closed_session_is_verified_in_the_players_browser(served, new_page):
    gm, player = new_page(), new_page()
    create_campaign(gm, page_url(served), system="stepdice", name="Checked", fields={"Dice Mode": "verifiable"})
    player.goto(invite(gm, "Ala"))
    create_character(player, WARRIOR)
    move(player, "test", {"Attribute": "strength", "Base Tn": 6}, offered=False)
    gm.get_by_test_id("dice-sessions").get_by_role("button", name="Close the dice session").click()
    check = player.get_by_test_id("dice-sessions").get_by_role("button", name="Check in this browser")
    check.click()
    result = player.get_by_test_id("dice-sessions").locator("[data-ok]")
    expect(result).to_have_attribute("data-ok", "true")
    expect(result).to_contain_text("(1)")
