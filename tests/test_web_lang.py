"""The builder in another language: `?lang=de` serves Boss Fight from its German translation,
remembers the choice in a cookie for the pages after, `?lang=` goes back; a pack without that
translation stays as written; a tag that is no language is ignored; the card images of each
language are drawn and cached apart."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi")
pytest.importorskip("httpx")

from web_support import make_client, text  # noqa: E402


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return make_client(tmp_path_factory.mktemp("builds"), tmp_path_factory.mktemp("cache"))


def names(client, query: str = "") -> set[str]:
    r = client.get(f"/api/boss_fight/cards{query}")
    assert r.status_code == 200, r.text[:300]
    doc = r.json()
    return {c["name"] for c in (doc if isinstance(doc, list) else doc["cards"])}


def test_lang_serves_the_translation_and_is_remembered(env):
    client, site = env
    client.cookies.clear()
    english = names(client)
    assert "Basic Attack" in english
    r = client.get("/api/boss_fight/cards?lang=de")
    assert "pnp_lang=de" in r.headers.get("set-cookie", "")
    assert "Einfacher Angriff" in names(client, "?lang=de")
    assert "Einfacher Angriff" in names(client)  # the cookie keeps it
    page = client.get("/p/boss_fight")
    assert page.status_code == 200 and "Bosskampf" in text(page.text)
    assert page.text.count("<html lang=") == 1 and '<html lang="de"' in page.text  # a screen reader reads German
    # the pack page offers its languages, each in its own words, the one shown not a link
    assert '<strong lang="de">Deutsch</strong>' in page.text
    assert '<a href="?lang=" lang="en" hreflang="en">English</a>' in page.text
    assert "Die Brutmutter" in page.text and "The Brood Matron" not in page.text  # presets in German too
    card_page = client.get("/p/boss_fight/cards/oriel-vance").text
    assert '<html lang="de"' in card_page
    card = text(card_page)
    assert "Kraft" in card and "Might" not in card  # a choice value as the card says it
    rules_page = client.get("/p/boss_fight/rules").text
    assert '<html lang="de"' in rules_page
    rules = text(rules_page)
    assert "Kapitel 3" in rules and "Chapter 3" not in rules and "Einen Boss bauen" in rules
    r = client.get("/api/boss_fight/cards?lang=")
    assert "Max-Age=0" in r.headers.get("set-cookie", "")
    client.cookies.clear()
    assert names(client) == english
    assert '<html lang="en"' in client.get("/p/boss_fight").text and '<html lang="en"' in client.get("/").text
    assert site.pack("boss_fight").spec.language == "en"  # outside a request: the pack as written


def test_a_pack_without_the_translation_and_a_bad_tag(env):
    client, site = env
    client.cookies.clear()
    r = client.get("/api/tactics/cards?lang=de")  # Tactics has no German: as written
    assert r.status_code == 200
    assert 'class="languages"' not in client.get("/p/tactics").text  # no menu without translations
    assert "Basic Attack" in names(client, "?lang=../../etc")  # no language: ignored
    assert "pnp_lang=..%2F" not in r.headers.get("set-cookie", "")
    client.cookies.clear()


def test_card_images_of_each_language_are_kept_apart(env):
    client, site = env
    client.cookies.clear()
    en = client.get("/api/boss_fight/cards").json()
    de = client.get("/api/boss_fight/cards?lang=de").json()
    en_card = next(c for c in (en if isinstance(en, list) else en["cards"]) if c["id"] == "basic-attack")
    de_card = next(c for c in (de if isinstance(de, list) else de["cards"]) if c["id"] == "basic-attack")
    a = client.get(en_card["image"] + ("&" if "?" in en_card["image"] else "?") + "lang=")
    b = client.get(de_card["image"] + ("&" if "?" in de_card["image"] else "?") + "lang=de")
    assert a.status_code == b.status_code == 200 and a.content[:8] == b.content[:8] == b"\x89PNG\r\n\x1a\n"
    assert a.content != b.content
    client.cookies.clear()
