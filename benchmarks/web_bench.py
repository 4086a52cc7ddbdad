"""The web table's first paint and weight, measured (never asserted).

    .venv/bin/python benchmarks/web_bench.py [--runs 7] [--system stepdice]

Starts `rulekeeper serve` on the embedded defaults, sets up a campaign over the API (a GM, one player and their
character; for Step Dice an encounter with an enemy, so the board has a grid to draw), then opens the player's join
link in headless Chromium (/usr/bin/chromium, driven by Playwright) `--runs` times:

- **cold**: a new browser context each time (empty cache), from navigation start to the table drawn (the first
  time the page's `.state` holds the system's board), read in the page with `performance.now()` by a
  MutationObserver installed before any of the page's scripts run;
- **warm**: the same link reloaded in that context (the browser revalidates: the page is served `no-cache`).

It prints the median and the range of each, and the page's weight: every script, style sheet and other file the
page loads from /static (and the page itself), as transferred (the service gzips them) and uncompressed, and
beside it what the page reads from the API up to the first drawn table ("API": the contract it builds its forms
from, the campaign, the table, the event log; not part of the page's weight).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

import httpx

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from bench import start_service  # noqa: E402  (sibling scripts, not a package)

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# Set before the page's scripts run: the moment the table is first drawn, on the page's own clock.
WATCH = """
new MutationObserver((_, observer) => {
  if (document.querySelector('.state .board')) {
    window.__tableDrawn = performance.now();
    observer.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""

SHEETS = {
    "stepdice": {
        "name": "Brona",
        "role": "warrior",
        "talents": ["Tough", "Loud"],
        "equipment": {"weapon": "sword", "items": ["rope", "torch", "flask"]},
    },
}


def set_up(base: str, system: str) -> str:
    """A campaign with one player and their character over REST; returns the player's join link."""
    with httpx.Client(base_url=base, timeout=30) as c:
        made = c.post("/v1/campaigns", json={"system": system, "name": "bench", "dice_mode": "table"}).json()
        cid, gm = made["campaign"]["id"], {"Authorization": f"Bearer {made['gm_token']}"}
        seat = c.post(f"/v1/campaigns/{cid}/players", json={"name": "Ala"}, headers=gm).json()
        me = {"Authorization": f"Bearer {seat['token']}"}
        char = c.post(f"/v1/campaigns/{cid}/characters", json={"sheet": SHEETS[system]}, headers=me)
        char.raise_for_status()
        if system == "stepdice":
            pc = char.json()["id"]
            for action in (
                {"type": "create_encounter"},
                {"type": "add_character", "character_id": pc, "position": {"x": 0, "y": 0}},
                {
                    "type": "add_enemy",
                    "enemy_id": "m",
                    "name": "Goblin",
                    "kind": "minion",
                    "position": {"x": 1, "y": 0},
                },
                {"type": "start_encounter"},
            ):
                c.post(f"/v1/campaigns/{cid}/actions", json={"action": action}, headers=gm).raise_for_status()
    return f"{base}/#campaign={cid}&token={seat['token']}"


def kind_of(url: str, resource: str) -> str:
    if "/static/" not in url and resource != "document":
        return "API"
    if resource == "script" or url.endswith((".js", ".mjs")):
        return "JS"
    if resource == "stylesheet" or url.endswith(".css"):
        return "CSS"
    return "HTML" if resource == "document" else "other"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--system", default="stepdice", choices=sorted(SHEETS))
    args = ap.parse_args()
    if not Path(CHROMIUM).exists():
        raise SystemExit(f"{CHROMIUM} not found (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        proc, base = start_service({"DATABASE_URL": f"sqlite:///{tmp}/bench.db"}, HERE.parent)
        try:
            link = set_up(base, args.system)
            cold, warm, weight = [], [], {}
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
                for run in range(args.runs):
                    context = browser.new_context(viewport={"width": 375, "height": 812})
                    context.add_init_script(WATCH)
                    page = context.new_page()
                    loaded = []
                    page.on("requestfinished", lambda r, loaded=loaded: loaded.append(r))
                    page.goto(link)
                    page.wait_for_selector(".state .board", timeout=30_000)
                    cold.append(page.evaluate("window.__tableDrawn"))
                    if run == 0:
                        for r in loaded:
                            if not r.url.startswith(base):
                                continue
                            sizes = r.sizes()
                            body = r.response().body() if r.response() else b""
                            k = kind_of(r.url.split("?")[0], r.resource_type)
                            sent, raw = weight.get(k, (0, 0))
                            weight[k] = (sent + sizes["responseBodySize"], raw + len(body))
                    page.reload()
                    page.wait_for_selector(".state .board", timeout=30_000)
                    warm.append(page.evaluate("window.__tableDrawn"))
                    context.close()
                browser.close()
        finally:
            proc.terminate()
            proc.wait(timeout=10)

    def line(name: str, xs: list[float]) -> str:
        return f"{name}: median {statistics.median(xs):.0f} ms (min {min(xs):.0f}, max {max(xs):.0f}, {len(xs)} runs)"

    print(f"Time to the first drawn table ({args.system}, player's join link, 375 px, localhost):")
    print("  " + line("cold (new context)", cold))
    print("  " + line("warm (reload)", warm))
    print("Page weight (as transferred, gzip / uncompressed):")
    for k in ("HTML", "JS", "CSS", "other", "API"):
        if k in weight:
            print(f"  {k}: {weight[k][0] / 1024:.1f} KiB / {weight[k][1] / 1024:.1f} KiB")
    js_css = [weight.get(k, (0, 0)) for k in ("JS", "CSS")]
    print(f"  JS+CSS: {sum(s for s, _ in js_css) / 1024:.1f} KiB / {sum(r for _, r in js_css) / 1024:.1f} KiB")


if __name__ == "__main__":
    main()
