"""The journey #42 is done by, clicked as players click in Chromium: from the home page to a
legal build, saved, described and published; another player finds it with a card search,
likes it, comments on it, copies it and prints it; a third compares it with its author's next
version. Every click is counted and every page is read for words a player should not meet."""

from __future__ import annotations

import re
import shutil

import pytest
from click.testing import CliRunner

from generator.cli import main as cli
from web_support import start_serve, stop_serve

playwright_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)
pytestmark = pytest.mark.browser
expect = playwright_api.expect

PASSWORD = "correct horse battery"
NEVER = re.compile(r"\(s\)|\{'|\bNone\b|\.yaml\b|builds/|builds folder|Traceback")


class Player:
    """A page that counts the player's clicks and reads every page it lands on."""

    def __init__(self, browser, base: str, width: int):
        self.pg = browser.new_page(viewport={"width": width, "height": 900})
        self.base, self.clicks, self.said = base, 0, []
        self.errors: list[str] = []
        self.pg.on("pageerror", lambda e: self.errors.append(str(e)))

    def click(self, locator) -> None:
        locator.click()
        self.clicks += 1
        self.pg.wait_for_load_state()
        self.pg.wait_for_function("() => !window.pnpBusy")
        text = self.pg.locator("body").inner_text()
        self.said += NEVER.findall(text)

    def sign_up(self, name: str) -> None:
        self.pg.goto(self.base + "/account/signup")
        self.pg.get_by_label("Name").fill(name)
        self.pg.get_by_label("Password (at least 10 characters)").fill(PASSWORD)
        self.pg.get_by_role("button", name="Sign up").click()
        self.pg.wait_for_load_state()


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("journey")
    url = f"sqlite:///{tmp / 'site.sqlite3'}"
    made = CliRunner().invoke(cli, ["accounts", "add", "ada", "--designer", "--password-stdin", "--db", url],
                              input=PASSWORD + "\n")
    assert made.exit_code == 0, made.output
    proc, port, _ = start_serve("card_data", "--port", "0", "--accounts", "--designer", "ada", "--db", url,
                                "--builds", str(tmp / "builds"), "--cache", str(tmp / "cache"))
    with playwright_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        yield f"http://localhost:{port}", browser
        browser.close()
    stop_serve(proc)


@pytest.mark.parametrize("width", [1280, 390])
def test_from_the_home_page_to_a_build_others_find_like_comment_copy_and_print(site, width, tmp_path):
    base, browser = site
    mira = Player(browser, base, width)
    mira.sign_up(f"mira{width}")
    pg = mira.pg
    # home page to a legal build: a preset, as a new player starts
    pg.goto(base + "/")
    mira.click(pg.get_by_role("link", name="Boss Fight", exact=True).first)
    mira.click(pg.get_by_role("link", name="Make a build"))
    mira.click(pg.get_by_role("link", name="Knives in the Dark"))
    expect(pg.locator("#verdict")).to_have_text("LEGAL")
    to_legal = mira.clicks
    # saved, described, published
    mira.click(pg.get_by_role("button", name="Save", exact=True))
    expect(pg.locator("#flash")).to_contain_text("Saved “Knives in the Dark (copy)”.")
    mira.click(pg.get_by_role("link", name="Saved", exact=True))
    mira.click(pg.get_by_role("link", name="History and publish").first)
    pg.get_by_label("Description").fill(f"Poison first ({width}): **Nix** opens, Tamsin keeps range.")
    mira.click(pg.get_by_role("button", name="Publish"))
    expect(pg.locator("h1")).to_have_text("Knives in the Dark (copy)")
    expect(pg.locator(".description strong")).to_have_text("Nix")
    published = pg.url
    # another player finds it with a card search, likes, comments, copies and prints it
    tom = Player(browser, base, width)
    tom.sign_up(f"tom{width}")
    tp = tom.pg
    tp.goto(base + "/p/boss_fight")
    tom.click(tp.get_by_role("link", name="Published", exact=True))
    tp.get_by_label("Holding cards").fill("kw:poison agility>=4")
    tom.click(tp.get_by_role("button", name="Find"))
    tom.click(tp.get_by_role("link", name="Knives in the Dark (copy)").first)
    assert tp.url == published
    tom.click(tp.get_by_role("button", name="♡ Like"))
    expect(tp.get_by_role("button", name="♥ Liked")).to_be_visible()
    tp.get_by_label("Your comment (Markdown)").fill("Took it to the table: *Envenom* wins games.")
    tom.click(tp.get_by_role("button", name="Post the comment"))
    expect(tp.locator(".commentlist em")).to_have_text("Envenom")
    with tp.expect_download() as pdf:
        tp.get_by_role("button", name="Roster sheet (PDF)").click()
    assert pdf.value.suggested_filename.endswith(".pdf")
    tom.click(tp.get_by_role("button", name="Copy into my builds"))
    expect(tp.locator("#verdict")).to_have_text("LEGAL")
    # the author sees it liked and copied once (her own copy would not count)
    pg.goto(published)
    expect(pg.locator(".pubnums")).to_contain_text("1 like")
    expect(pg.locator(".pubnums")).to_contain_text("copied 1 time")
    assert to_legal == 3, to_legal
    assert not mira.said and not tom.said, (mira.said, tom.said)
    assert not mira.errors and not tom.errors, (mira.errors, tom.errors)
    pg.screenshot(path=str(tmp_path / f"published-{width}.png"), full_page=True)
