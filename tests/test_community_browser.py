"""The community site in Chromium with `pnp serve --accounts --designer ada`: a player signs
up and out; the designer (made with `pnp accounts add ada --designer`) signs in, saves a build
from the editor (its fetch carries the CSRF token csrf.js adds), sees it in Saved with its
history, publishes it, signs out: the saved builds are gone from view. All under the site's
Content-Security-Policy: no violation reported."""

from __future__ import annotations

import shutil

import pytest

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed (make test installs it: apt-get install chromium)",
                allow_module_level=True)

from playwright.sync_api import expect  # noqa: E402

from click.testing import CliRunner  # noqa: E402

from generator.cli import main as cli  # noqa: E402
from generator.community.store import Store  # noqa: E402
from web_support import start_serve, stop_serve  # noqa: E402


def test_sign_up_save_publish_and_sign_out_in_a_browser(tmp_path):
    url = f"sqlite:///{tmp_path / 'site.sqlite3'}"
    made = CliRunner().invoke(cli, ["accounts", "add", "ada", "--designer", "--password-stdin", "--db", url],
                              input="correct horse battery\n")
    assert made.exit_code == 0, made.output
    proc, port, _ = start_serve("card_data/boss_fight", "--port", "0", "--accounts", "--designer", "ada", "--db", url,
                                "--builds", str(tmp_path / "builds"), "--cache", str(tmp_path / "cache"))
    base = f"http://localhost:{port}"
    try:
        with playwright_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            blocked = []
            page.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
            page.goto(base + "/account/signup")
            page.get_by_label("Name").fill("bea")
            page.get_by_label("Password (at least 10 characters)").fill("correct horse battery")
            page.get_by_role("button", name="Sign up").click()
            expect(page.locator("nav.account")).to_contain_text("bea")
            expect(page.locator("nav.account")).not_to_contain_text("designer")  # signing up makes players
            page.get_by_role("button", name="Sign out").click()
            page.goto(base + "/account/signin")
            page.get_by_label("Name").fill("ADA")  # one name whatever its case
            page.get_by_label("Password").fill("correct horse battery")
            page.get_by_role("button", name="Sign in").click()
            expect(page.locator("nav.account")).to_contain_text("ada (designer)")
            page.goto(base + "/p/boss_fight/edit?preset=boss-ashen-behemoth")
            page.get_by_role("button", name="Save", exact=True).click()
            expect(page.locator("#flash")).to_contain_text("Saved “")
            store = Store(url)
            user = store.user(name="ada")
            assert [b.name for b in store.builds(user.id)] == ["The Ashen Behemoth (copy)"]
            page.goto(base + "/p/boss_fight/builds")
            page.get_by_role("link", name="History and publish").click()
            expect(page.locator("h1")).to_contain_text("History of")
            page.get_by_role("button", name="Publish").click()
            expect(page.locator("h1")).to_have_text("The Ashen Behemoth (copy)")
            assert len(store.browse("boss_fight")) == 1
            page.get_by_role("button", name="Sign out").click()
            expect(page.locator("nav.account")).to_contain_text("Sign in")
            page.goto(base + "/p/boss_fight/builds")
            expect(page.locator("main")).not_to_contain_text("The Ashen Behemoth (copy)")
            page.goto(base + "/no/such/page")  # the error page's Back link is a script now, not javascript:
            assert not blocked, blocked
            browser.close()
            store.engine.dispose()
    finally:
        stop_serve(proc)
