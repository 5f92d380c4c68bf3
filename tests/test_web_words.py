"""The builder's own words under `?lang=de`: pnp's German catalogue (generator/web/locale/de.po)
holds every word the templates and the editor's script mark, each translated with its
`{names}` and markup kept; a German page shows no English word of its controls (the guard has a
self-test); an English page prints the words exactly as the templates wrote them; a page speaks
its pack's language (a pack without German stays English under `?lang=de`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("babel")

from web_support import doc_of, make_client  # noqa: E402
from web_words_support import MARKUP, NAMES, english_left, german  # noqa: E402

from generator.web.words import JS_WORDS, builder_sources, builder_words  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
# the pages a player sees, as the German page of each must show no English control word
PAGES = ["/", "/p/boss_fight", "/p/boss_fight/cards", "/p/boss_fight/cards?q=zzzz", "/p/boss_fight/new",
         "/p/boss_fight/builds", "/p/boss_fight/edit?side=hero", "/p/boss_fight/edit?preset=party-oathsworn",
         "/p/boss_fight/edit?preset=boss-brood-matron", "/p/boss_fight/cards?q=points%3C%3C",
         "/p/boss_fight/cards/oriel-vance", "/p/boss_fight/rules", "/p/boss_fight/maps", "/p/boss_fight/about",
         "/p/boss_fight/rules/combat", "/p/boss_fight/rules/search?q=zzqx", "/p/boss_fight/maps/ash-pit",
         "/p/boss_fight/help/search", "/p/boss_fight/compare", "/p/boss_fight/compare?a=zz&b=PNP1-x"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    client, _site = make_client(tmp_path_factory.mktemp("builds"), tmp_path_factory.mktemp("cache"))
    return client


def test_the_german_catalogue_holds_every_marked_word_translated_with_its_names_and_markup():
    words = german()
    wanted = {s.key for s in builder_sources()}
    assert wanted - set(words) == set(), "run tools/builder_words.py --lang de and translate the new words"
    assert set(words) - wanted == set(), "words no template marks any more: run tools/builder_words.py --lang de"
    for (_context, source), text in words.items():
        assert text, f"`{source}` has no German"
        assert set(NAMES.findall(text)) <= set(NAMES.findall(source)), (source, text)
        # the words print as HTML (Markup): a translation carries the source's tags and entities, no others
        assert sorted(MARKUP.findall(text)) == sorted(MARKUP.findall(source)), (source, text)
        assert "<" not in MARKUP.sub("", text) or "<" in MARKUP.sub("", source), (source, text)


def test_the_editor_script_writes_only_the_words_it_is_given():
    script = (REPO / "generator" / "web" / "static" / "app.js").read_text(encoding="utf-8")
    assert set(re.findall(r'\btr\("((?:[^"\\]|\\.)*)"', script)) == set(JS_WORDS)


def test_a_german_page_shows_no_english_word_of_its_controls(client):
    client.cookies.clear()
    for path in PAGES:
        r = client.get(path + ("&" if "?" in path else "?") + "lang=de")
        assert r.status_code in (200, 422), (path, r.status_code)
        assert english_left(r.text) == set(), path
    editor = client.get("/p/boss_fight/edit?preset=party-oathsworn").text  # the cookie keeps German
    for word in ("Speichern", "Rückgängig", "Karten filtern", "Punkte je Figur", "GÜLTIG", "Notizen"):
        assert word in editor, word
    assert '<script type="application/json" id="pnp-words">' in editor  # the script's own words
    client.cookies.clear()


def test_the_guard_sees_an_english_word_left_on_a_german_page(client):
    client.cookies.clear()
    page = client.get("/p/boss_fight/edit?side=hero&lang=de").text
    client.cookies.clear()
    assert english_left(page) == set()
    assert english_left(page.replace("Speichern</button>", "Save</button>")) == {"Save"}
    assert english_left(page.replace('aria-label="Rückgängig und wiederholen"', 'aria-label="Undo and redo"')) \
        == {"Undo and redo"}


def test_english_pages_print_the_words_as_the_templates_wrote_them(client):
    client.cookies.clear()
    editor = client.get("/p/boss_fight/edit?preset=party-oathsworn").text
    cards = client.get("/p/boss_fight/cards").text
    # Markup, as Jinja's i18n extension gives: no escaping of the template's own apostrophes and signs
    assert "<p class=\"notice\">The editor's buttons need JavaScript" in editor and "&#39;" not in editor.split("build-doc")[0]
    assert 'placeholder="words, or type:attack points<=3"' in cards
    assert "pnp-words" not in editor and '<html lang="en">' in editor
    assert english_left(editor.replace('<html lang="en">', "")) != set()  # the English words are there
    german_words = {text for text in german().values() if len(text) > 6 and text.isalpha()}
    assert not [w for w in german_words if re.search(rf">\s*{re.escape(w)}\s*<", editor + cards)]


def test_a_page_speaks_its_packs_language(client):
    client.cookies.clear()
    tactics = client.get("/p/tactics?lang=de").text  # no German translation: the pack and its page as written
    assert '<html lang="en">' in tactics and ">Browse the cards<" in tactics
    start = client.get("/?lang=de").text  # no pack: the language asked for
    assert "<h1>Spiele</h1>" in start
    client.cookies.clear()
    assert builder_words("en") is None and builder_words("xx") is None and builder_words("de") is not None


def test_a_shared_build_in_german(client):
    client.cookies.clear()
    code = re.search(r'data-code="([^"]+)"', client.get("/p/boss_fight/edit?preset=party-oathsworn").text)[1]
    page = client.get(f"/b/{code}?lang=de").text
    client.cookies.clear()
    assert "Eine geteilte Aufstellung, nur zum Lesen." in page and english_left(page) == set()


def test_a_german_editor_change_answers_in_german(client):
    client.cookies.clear()
    page = client.get("/p/boss_fight/edit?side=hero&lang=de").text
    r = client.post("/p/boss_fight/edit/apply", json={"build": doc_of(page), "op": {"op": "view"}},
                    headers={"x-pnp-fragment": "1", "origin": "http://localhost"})
    client.cookies.clear()
    assert r.status_code == 200 and "Name der Aufstellung" in r.text and english_left(r.text) == set()


def test_a_german_builds_rule_messages_come_from_the_packs_translation(client):
    """The rules' own messages (pnp's words, pack/translations/own.py) print in the pack's language;
    their fix buttons in the builder's."""
    client.cookies.clear()
    page = client.get("/p/boss_fight/edit?side=boss&lang=de").text  # an empty boss: no part, an empty deck
    client.cookies.clear()
    assert "hat 0 Karten; es müssen genau 30 sein" in page and "must have exactly" not in page
    assert "nötig sind mindestens 1" in page and "it needs at least" not in page
    assert "hat 0 Karten vom Typ Bossteil" in page and "Karte(n)" not in page  # a plural entry's form for 0
    english = client.get("/p/boss_fight/edit?side=boss").text
    assert "has 0 cards; it must have exactly 30" in english and "es müssen" not in english


def test_a_sample_hand_and_a_comparison_in_german(client):
    client.cookies.clear()
    codes = [re.search(r'data-code="([^"]+)"', client.get(f"/p/boss_fight/edit?preset={p}").text)[1]
             for p in ("party-oathsworn", "boss-brood-matron")]
    hand = client.get(f"/p/boss_fight/hand?code={codes[0]}&char=1&seed=9&drawn=3&lang=de").text
    both = client.get(f"/p/boss_fight/compare?a={codes[0]}&b={codes[1]}&lang=de").text
    same = client.get(f"/p/boss_fight/compare?a={codes[0]}&b={codes[0]}&lang=de").text
    client.cookies.clear()
    assert "4 Karten aus den 30 Karten des Decks, gemischt, danach 3 weitere gezogen." in hand
    assert "<title>Probehand: " in hand and "Nächste Karte ziehen" in hand
    assert '<th scope="col">Aktionstyp</th>' in hand and ">Angriff<" in hand  # the pack's words for its field
    assert "100 von 100" in both and "nur in " in both and "Aufstellungen vergleichen: " in both
    assert "Beide Aufstellungen enthalten dieselben Karten." in same
    for page in (hand, both, same):
        assert english_left(page) == set()


def test_the_statistics_and_a_new_builds_name_in_the_packs_language(client):
    client.cookies.clear()
    boss = client.get("/p/boss_fight/edit?preset=boss-brood-matron&lang=de").text
    new = client.get("/p/boss_fight/edit?side=hero&lang=de").text
    client.cookies.clear()
    english = client.get("/p/boss_fight/edit?preset=boss-brood-matron").text
    assert "Deck nach Aktionstyp" in boss and "action type" not in boss.split("build-doc")[0]
    assert "deck by action type" in english
    boss = client.get("/p/boss_fight/edit?side=boss&lang=de").text
    client.cookies.clear()
    # one phrase for the name, its own entry (msgctxt), so German needs no adjective that agrees with the side
    assert doc_of(new)["name"] == "Heldengruppe ohne Namen" and doc_of(boss)["name"] == "Boss ohne Namen"
    assert doc_of(client.get("/p/boss_fight/edit?side=hero").text)["name"] == "New Hero Party"


def german_and_english(client, path: str) -> tuple[str, str]:
    """A page asked for in German (`lang=de`), then as it is, each without the language the
    last answer's cookie chose."""
    client.cookies.clear()
    german = client.get(f"{path}{'&' if '?' in path else '?'}lang=de").text
    client.cookies.clear()
    return german, client.get(path).text


def test_a_search_that_cannot_be_read_says_so_in_the_packs_language(client):
    german, english = german_and_english(client, "/p/boss_fight/cards?q=points%3C%3C")
    assert "points ist eine Zahl</strong>" in german and "schreibe eine Zahl, etwa points&lt;3" in german
    assert "points is a number</strong>" in english and "write a number, as in points&lt;3" in english


def test_the_search_help_describes_the_packs_fields_in_its_language(client):
    german, english = german_and_english(client, "/p/boss_fight/help/search")
    assert "<td>der Name der Karte</td>" in german and "Teiltyp (Karten vom Typ Bossteil)" in german
    assert "the card's name" not in german and "<td>the card&#39;s name</td>" in english
    assert "piece type (Boss Piece cards)" in english
