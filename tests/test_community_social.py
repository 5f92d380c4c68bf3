"""A published build's page and what players do with it (#42 items 1, 5, 6), on SQLite and
PostgreSQL: the page shows the build (pictures and lists, points, verdict, author, a sanitised
description, versions, copy/share/print); publishing the saved build again is its next version,
compared with the last; one like per account however many requests race; comments in
Markdown, sanitised, bounded and rate-limited, hidden by the designer; copies by the author are
not counted; every change needs the page's CSRF token."""

from __future__ import annotations

import copy
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import unquote

import pytest
from fastapi.testclient import TestClient

from community_support import db_url, postgres  # noqa: F401  (fixtures)
from generator.community.app import community_app
from generator.community.social import COMMENTS_PER_MINUTE, like, markdown_html
from generator.core.limits import MAX_COMMENT
from generator.pack.load import load_pack
from generator.web.common import preset_docs
from generator.web.site import Site
from web_support import text

PACK = "card_data/boss_fight"
PASSWORD = "correct horse battery"
HOSTILE = ('**bold** <script>alert(1)</script> <img src=x onerror=alert(1)> [js](javascript:alert(1)) '
           '[data](data:text/html;base64,PHNjcmlwdD4=) ![pic](https://example.org/x.png) [far](//evil.example) '
           '[ok](https://example.org/rules) <a href="https://evil.example" onclick="x()">raw</a>\n\n# A heading')


@pytest.fixture(scope="module")
def presets():
    return {k: v[0] for k, v in preset_docs(load_pack(Path(PACK))).items()}


def _token(client, path="/account/signin") -> str:
    return re.search(r'name="csrf-token" content="([^"]+)"', client.get(path).text).group(1)


def _player(app, name):
    c = TestClient(app, base_url="http://localhost")
    r = c.post("/account/signup", data={"name": name, "password": PASSWORD, "csrf_token": _token(c)},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    if name == "designer":  # the operator names the designer (pnp accounts role): signing up makes players
        app.state.community_store.set_role(name, "designer")
    c.headers["x-csrf-token"] = _token(c)
    return c


@pytest.fixture
def site(tmp_path, db_url):
    app = community_app(Site.load([Path(PACK)], tmp_path / "builds", tmp_path / "cache"), db_url, accounts=True)
    yield app
    app.state.community_store.engine.dispose()


def _save(c, doc) -> str:
    return c.post("/p/boss_fight/builds/save", json={"build": copy.deepcopy(doc), "stem": None}).json()["stem"]


def _publish(c, stem, description=""):
    r = c.post(f"/p/boss_fight/builds/{stem}/publish", data={"points_limit": "", "description": description},
               follow_redirects=False)
    assert r.status_code == 303, r.text
    return r.headers["location"].rsplit("/", 1)[1]


def test_the_page_shows_the_build_and_its_sanitised_description(site, presets):
    designer, alice = _player(site, "designer"), _player(site, "alice")
    doc = presets["party-knives-in-the-dark"]
    public_id = _publish(alice, _save(alice, doc), HOSTILE)
    page = designer.get(f"/p/boss_fight/published/{public_id}").text
    # the description: Markdown rendered, nothing the author typed reaches the page as HTML
    about = page[page.index('id="about-h"'):page.index('id="editor"')]
    assert "<strong>bold</strong>" in about and "&lt;script&gt;" in about
    assert "<script" not in about and "<img" not in about and "onerror" not in about.replace("onerror=alert", "")
    assert "javascript:" not in about.split("[js](")[0] and 'href="javascript' not in about and 'href="data' not in about
    assert 'href="//evil' not in about and '<a href="https://evil' not in about
    assert '<a rel="nofollow ugc noopener" href="https://example.org/rules">ok</a>' in about
    assert "<h1" not in about and "<h3>A heading</h3>" in about  # a player's heading never titles the page
    assert page.count("<h1") == 1 and f"<h1>{doc['name']}</h1>" in page
    # each character with its cards as pictures and as a list, the points and the verdict
    for char in doc["characters"]:
        for card in [char["hero"], *char.get("equipment", []), *char.get("abilities", []), *char["deck"]]:
            assert f'/p/boss_fight/cards/{card}.png?thumb=true' in page, card
            assert f'<a href="/p/boss_fight/cards/{card}">' in page, card
    said = text(page)
    assert re.search(r"by\s+alice", said) and "LEGAL" in said and re.search(r"99 points of 100", said)
    assert "Version 1" in said and "Copy into my builds" in said and "Roster sheet (PDF)" in said
    code = re.search(r'href="/b/([^"]+)"', page).group(1)
    assert designer.get(f"/b/{code}").status_code == 200
    assert designer.post("/p/boss_fight/print/decklist.txt", data={"code": unquote(code)}).status_code == 200


def test_publishing_again_is_the_next_version_compared_with_the_last(site, presets):
    alice = _player(site, "alice")
    doc = copy.deepcopy(presets["party-knives-in-the-dark"])
    stem = _save(alice, doc)
    first = _publish(alice, stem, "first words")
    doc["characters"][0]["deck"]["walk"] -= 1
    doc["characters"][0]["deck"]["dash"] = doc["characters"][0]["deck"].get("dash", 0) + 1
    alice.post("/p/boss_fight/builds/save", json={"build": doc, "stem": stem})
    again = _publish(alice, stem)
    assert again == first  # the same address
    page = alice.get(f"/p/boss_fight/published/{first}").text
    assert "Version 2" in page and "Version 1" in page and "first words" in page  # an empty one keeps the words
    link = re.search(r'href="(/p/boss_fight/compare\?a=[^"]+)">Compare with version 2', page).group(1)
    diff = text(alice.get(link.replace("&amp;", "&")).text)
    assert re.search(r"Added\s+\+\s*1 ×\s+Dash", diff) and re.search(r"Taken out\s+−\s*1 ×\s+Walk", diff), diff
    assert "Version 1" in diff and "Version 2" in diff
    assert len(re.findall(r'/p/boss_fight/published/[A-Za-z0-9_-]+"><strong>', alice.get("/p/boss_fight/published").text)) == 1
    history = alice.get(f"/p/boss_fight/builds/{stem}/history").text
    assert "Publish version 3" in history


def test_one_like_per_account_however_requests_race(site, presets):
    _player(site, "designer")
    alice, bob, carol = _player(site, "alice"), _player(site, "bob"), _player(site, "carol")
    public_id = _publish(alice, _save(alice, presets["party-ember-circle"]))
    other = _publish(bob, _save(bob, presets["boss-ashen-behemoth"]))
    assert alice.post(f"/p/boss_fight/published/{public_id}/like").status_code == 403  # not one's own
    anon = TestClient(site, base_url="http://localhost")
    assert anon.post(f"/p/boss_fight/published/{public_id}/like", headers={"x-csrf-token": _token(anon)}).status_code == 401
    no_token = TestClient(site, base_url="http://localhost", cookies=bob.cookies)
    assert no_token.post(f"/p/boss_fight/published/{public_id}/like").status_code == 403  # CSRF
    with ThreadPoolExecutor(8) as pool:
        codes = list(pool.map(lambda _: bob.post(f"/p/boss_fight/published/{public_id}/like",
                                                   follow_redirects=False).status_code, range(16)))
    assert set(codes) == {303}
    store = site.state.community_store
    row = store.publication(public_id)
    assert row.likes == 1
    with ThreadPoolExecutor(8) as pool:  # the store itself: exactly one claim wins
        won = list(pool.map(lambda _: like(store, row.id, 999), range(16)))
    assert won.count(True) == 1 and store.publication(public_id).likes == 2
    carol.post(f"/p/boss_fight/published/{public_id}/like")
    assert "♥ Liked" in bob.get(f"/p/boss_fight/published/{public_id}").text
    assert "3 likes" in text(anon.get(f"/p/boss_fight/published/{public_id}").text)
    listed = re.findall(r'/p/boss_fight/published/([A-Za-z0-9_-]+)"><strong>', bob.get("/p/boss_fight/published?sort=liked").text)
    assert listed == [public_id, other]
    bob.post(f"/p/boss_fight/published/{public_id}/unlike")
    bob.post(f"/p/boss_fight/published/{public_id}/unlike")  # twice: still one taken away
    assert store.publication(public_id).likes == 2


def test_copies_by_the_author_are_not_counted(site, presets):
    alice, bob = _player(site, "alice"), _player(site, "bob")
    public_id = _publish(alice, _save(alice, presets["party-ember-circle"]))
    assert alice.post(f"/p/boss_fight/published/{public_id}/copy", follow_redirects=False).status_code == 303
    assert site.state.community_store.publication(public_id).copies == 0
    bob.post(f"/p/boss_fight/published/{public_id}/copy")
    assert site.state.community_store.publication(public_id).copies == 1


def test_comments_are_sanitised_bounded_and_hidden_by_the_designer(site, presets):
    designer, alice, bob = _player(site, "designer"), _player(site, "alice"), _player(site, "bob")
    public_id = _publish(alice, _save(alice, presets["party-ember-circle"]))
    url = f"/p/boss_fight/published/{public_id}"
    r = bob.post(f"{url}/comments", data={"body": HOSTILE}, follow_redirects=False)
    assert r.status_code == 303 and re.search(r"#comment-\d+$", r.headers["location"])
    page = alice.get(url).text
    said = page[page.index('id="comments-h"'):page.index("</ol>", page.index('id="comments-h"'))]
    assert "<strong>bold</strong>" in said and "<script" not in said and 'href="javascript' not in said
    assert "<img" not in said and "<h1" not in said
    assert bob.post(f"{url}/comments", data={"body": "   "}).status_code == 422
    assert bob.post(f"{url}/comments", data={"body": "x" * (MAX_COMMENT + 1)}).status_code == 413
    for i in range(COMMENTS_PER_MINUTE - 1):
        assert bob.post(f"{url}/comments", data={"body": f"comment {i}"}, follow_redirects=False).status_code == 303
    busy = bob.post(f"{url}/comments", data={"body": "one too many"})
    assert busy.status_code == 429 and "a minute" in busy.text
    cid = re.search(r'id="comment-(\d+)"', page).group(1)
    assert bob.post(f"{url}/comments/{cid}/hide").status_code == 403  # only the designer
    assert designer.post(f"{url}/comments/{cid}/hide", follow_redirects=False).status_code == 303
    assert f'id="comment-{cid}"' not in alice.get(url).text
    assert "hidden from players" in designer.get(url).text
    assert designer.post(f"{url}/comments/99999/hide").status_code == 404
    designer.post(f"{url}/comments/{cid}/show")
    assert f'id="comment-{cid}"' in alice.get(url).text


def test_only_the_author_describes_the_build(site, presets):
    alice, bob = _player(site, "alice"), _player(site, "bob")
    public_id = _publish(alice, _save(alice, presets["party-ember-circle"]))
    url = f"/p/boss_fight/published/{public_id}"
    assert bob.post(f"{url}/description", data={"description": "mine now"}).status_code == 403
    assert alice.post(f"{url}/description", data={"description": "*Fire* first"}, follow_redirects=False).status_code == 303
    assert "<em>Fire</em> first" in bob.get(url).text and "mine now" not in bob.get(url).text
    assert "Edit the description" in alice.get(url).text and "Edit the description" not in bob.get(url).text


def test_markdown_never_passes_html():
    for hostile in ("<script>x</script>", "<iframe src=x>", '<a href="javascript:x">a</a>', "[a](JAVASCRIPT:x)",
                    "[a]( javascript:x)", "[a](vbscript:x)", "<style>*{}</style>", "![a](https://x/y.png)",
                    "<svg onload=x>", "[a](data:x)", "`<b>`", "&lt;script&gt;"):
        html = str(markdown_html(hostile))
        assert not re.search(r"<(script|iframe|style|svg|img)\b", html, re.I), (hostile, html)
        assert not re.search(r'href="\s*(javascript|vbscript|data):', html, re.I), (hostile, html)


def test_an_editor_answer_is_not_given_the_account_links(site, presets):
    """The account links went into the first </header> of every HTML answer: in the editor's
    answer to a change that is a character's header, so Sign in / Sign up sat beside a boss."""
    bob = _player(site, "bob")
    for client in (bob, TestClient(site, base_url="http://localhost")):
        r = client.post("/p/boss_fight/edit/apply", json={"build": copy.deepcopy(presets["boss-ashen-behemoth"]),
                                                           "op": {"op": "view"}},
                        headers={"x-pnp-fragment": "1", "x-csrf-token": _token(client)})
        assert r.status_code == 200 and "<header>" in r.text
        assert 'class="account"' not in r.text and "/account/signin" not in r.text
        assert 'name="csrf_token"' in r.text  # its forms (print) still carry the token
    assert 'class="account"' in bob.get("/p/boss_fight").text


def test_the_published_builds_in_german(site, presets):
    """The list of published builds speaks the pack's language: its filters, a build's line,
    the title; English as the template writes it."""
    from web_words_support import english_left
    ada = _player(site, "ada")
    _publish(ada, _save(ada, presets["party-oathsworn"]))
    german = ada.get("/p/boss_fight/published?lang=de").text
    english = ada.get("/p/boss_fight/published?lang=").text
    # "0\u2011mal": a non-breaking hyphen, so "0-" never ends a line (tests/test_web_browser.py)
    assert "Veröffentlichte Aufstellungen: " in german and "· 0 Likes · 0\u2011mal kopiert" in german
    assert "Bossteil oder Held" in german and english_left(german) == set()
    assert "· 0 likes · copied 0 times" in english and "Boss Piece or Hero" in english


def test_the_account_pages_in_german(site):
    """Sign-in and sign-up pages, their account links and a refused sign-in in German under
    ?lang=de (no pack: the language asked for, said in <html lang>); English as written."""
    from web_words_support import english_left
    c = TestClient(site, base_url="http://localhost")
    signin, signup = c.get("/account/signin?lang=de").text, c.get("/account/signup").text  # the cookie keeps German
    refused = c.post("/account/signin", data={"name": "nobody", "password": "not the password", "csrf_token": _token(c)})
    assert '<html lang="de">' in signin and "<title>Anmelden · pnp</title>" in signin and ">Registrieren</a>" in signin
    assert "Passwort (mindestens 10 Zeichen)" in signup and "Name und Passwort passen zu keinem Konto" in refused.text
    for page in (signin, signup, refused.text):
        assert english_left(page) == set()
    english = c.get("/account/signin?lang=").text
    assert '<html lang="en">' in english and ">Sign up</a>" in english and "No account yet?" in english


def test_a_published_build_in_german(site, presets):
    """A published build's page in German: its words, and the pack's names (the view is kept
    per language, so an English visit first does not leave its names for the German one)."""
    from web_words_support import english_left
    ada = _player(site, "ada")
    public_id = _publish(ada, _save(ada, presets["party-oathsworn"]))
    english = ada.get(f"/p/boss_fight/published/{public_id}?lang=").text
    german = ada.get(f"/p/boss_fight/published/{public_id}?lang=de").text
    assert "Im Editor öffnen" in german and "Fassung 1" in german and "Hask Rothand" in german
    assert english_left(german) == set() and "Hask Redhand" not in german
    assert "Open in the editor" in english and "Hask Redhand" in english


def test_the_history_and_the_card_statistics_in_german(site, presets):
    from web_words_support import english_left
    designer = _player(site, "designer")
    stem = _save(designer, presets["party-oathsworn"])
    _publish(designer, stem)
    history = designer.get(f"/p/boss_fight/builds/{stem}/history?lang=de").text
    stats = designer.get("/p/boss_fight/stats?lang=de").text
    assert "Verlauf von <code>" in history and "Fassung 2 veröffentlichen" in history
    assert "Aus 1 veröffentlichten Aufstellung (verborgene nicht mitgezählt)." in stats
    assert english_left(history) == english_left(stats) == set()
    assert "Publish version 2" in designer.get(f"/p/boss_fight/builds/{stem}/history?lang=").text
