"""Boss Fight in German, made with `pnp translate` (card_data/boss_fight/translations/de.po): the
example and the test of the whole translation workflow. Every string a player reads is
translated (a few may trail a change to the English, each said: BEHIND), none broken, the file is one gettext and Babel read alike, every card face
fits (rules text at 6 pt or more, every other text at 5 pt or more, read back from what was
drawn), and the kit builds in German from the command line, with German on the cards and in the
rulebook and the PDFs in the language's own output folder. The builder's `?lang=de` serves the
same pack."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from generator.cli import main
from generator.core.pdfwords import page_words
from generator.kit import pack_faces
from generator.pack.load import load_pack
from generator.pack.translations.catalog import entries, read_catalog
from generator.pack.translations.inventory import pack_sources
from generator.render.cards.faces import CardShared
from generator.render.cards.ink import face_ink

REPO = Path(__file__).resolve().parents[1]
BOSS_FIGHT = REPO / "card_data" / "boss_fight"
PO = BOSS_FIGHT / "translations" / "de.po"
RULES_PT, LABEL_PT = 6.0, 5.0


@pytest.fixture(scope="module")
def german():
    return load_pack(BOSS_FIGHT, lang="de")


# Boss Fight's English goes on changing under other hands, and the German follows a step behind, as
# a real translation does: a changed or new string is stale or missing until the translator's next
# pass (`pnp translate card_data/boss_fight --lang de`). A few may be; a translation that falls far
# behind, or breaks, fails here. At each translator's pass the file is whole (0 fuzzy, 0 missing).
BEHIND = 0.02


def _behind(pack) -> int:
    return len(pack.translation.missing) + len(pack.translation.stale)


def test_every_string_of_boss_fight_has_a_german_translation(german):
    source = load_pack(BOSS_FIGHT)
    found = entries(read_catalog(PO, "de"), pack_sources(source), [k.name for k in source.spec.keywords.values()])
    states = {e.state for e in found}
    assert "broken" not in states
    assert _behind(german) <= BEHIND * len(found), (
        [s.reference for s in german.translation.fallbacks], "run `pnp translate card_data/boss_fight --lang de`")
    assert german.spec.language == "de" and german.spec.name == "Bosskampf"
    assert german.cards["oriel-vance"].name == "Oriel Vance"
    assert german.cards["basic-attack"].name == "Einfacher Angriff"
    assert german.spec.keywords["immobilised"].name == "Festgesetzt"


def test_the_german_file_is_gettext_clean():
    if shutil.which("msgfmt") is None:
        pytest.skip("needs gettext's msgfmt (`make test` installs it)")
    check = subprocess.run(["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(PO)],
                           capture_output=True, text=True)
    assert check.returncode == 0, check.stderr
    assert re.fullmatch(r"\d+ translated messages\.\n", check.stderr), check.stderr


def test_every_german_card_fits_at_6_pt(german):
    """Read back from what each face draws: a card's rules text (`text`) at 6 pt or more, its
    other text (titles, type lines, flavour, stats) at 5 pt or more."""
    shared = CardShared(german)
    faces = [f for f in pack_faces(german, shared, copies=False) if f.card is not None]
    assert len(faces) == len(german.cards)
    small = []
    for face, ink in zip(faces, face_ink(shared, faces)):
        assert ink is not None, face.card.id
        for drawn in ink.elements:
            sizes = [run.size_pt for run in drawn.texts]
            if drawn.name == "collation":  # the printer's fine print (index, version, id): 4.6 pt in any language
                continue
            floor = RULES_PT if drawn.name == "text" else LABEL_PT
            if sizes and min(sizes) < floor - 0.005:
                small.append(f"{face.card.id} {drawn.name}: {min(sizes)} pt")
    assert small == []


def test_the_german_kit_builds_from_the_command_line(tmp_path):
    out = tmp_path / "kit"
    result = CliRunner().invoke(main, ["build", str(BOSS_FIGHT), "--lang", "de", "--only", "cards",
                                       "-o", str(out), "-q"])
    assert result.exit_code == 0, result.output
    # nothing overflows; what prints in English for want of a translation is said (see BEHIND)
    assert [w for w in result.output.splitlines() if w.startswith("warning") and "not translated yet" not in w
            and "changed since they were translated" not in w] == []
    words = " ".join(w for page in page_words(out / "cards.pdf").values() for w, _box in page)
    assert "Festgesetzt" in words and "Einfacher Angriff" in words and "Bossteil" in words
    assert "Immobilised" not in words and "Boss Piece" not in words


def test_the_default_output_folder_is_the_languages_own(tmp_path, monkeypatch):
    from generator.kit import output_dir
    german = load_pack(BOSS_FIGHT, lang="de")
    assert output_dir(german, None).name == "boss_fight-de"
    assert output_dir(load_pack(BOSS_FIGHT), None).name == "boss_fight"


def test_validate_checks_the_german_pack_and_the_report_counts_it():
    result = CliRunner().invoke(main, ["validate", str(BOSS_FIGHT), "--lang", "de"])
    assert result.exit_code == 0, result.output
    report = CliRunner().invoke(main, ["translate", str(BOSS_FIGHT), "--report", "--lang", "de"])
    assert report.exit_code == 0, report.output
    row = next(line for line in report.output.splitlines() if line.startswith("de "))
    done, fuzzy, missing, broken, unfit = row.split()[1:]
    assert (broken, unfit) == ("0", "0") and int(done) > 1600
    assert int(fuzzy) + int(missing) <= BEHIND * (int(done) + int(fuzzy) + int(missing))


def test_the_card_list_says_choice_values_and_attack_kinds_in_german(german):
    """The rulebook's Card List keeps the data's values (`Might`, rules match them) but prints them as the
    cards do: through the translation, by their field (`constitution`) or as the layouts name them."""
    from generator.pack.cardlist import sorted_cards
    from generator.render.rulebook.reference import card_columns
    heroes = [c for c in sorted_cards(german) if c.type == "hero"]
    head, rows = card_columns(german, "hero", heroes)
    column = head.index("Veranlagung")
    assert {r[column] for r in rows} == {"Kraft", "Finesse", "Arkanum", "Glaube"}
    head, _ = card_columns(german, "equipment", [c for c in sorted_cards(german) if c.type == "equipment"])
    assert {"Einfach", "Schwer", "Besonders"} <= set(head) and "Basic" not in head
    english = load_pack(BOSS_FIGHT)
    head, rows = card_columns(english, "hero", [c for c in sorted_cards(english) if c.type == "hero"])
    assert "Might" in {r[head.index("Constitution")] for r in rows}


def test_a_tts_tooltip_names_the_icons_in_german(german):
    """TTS shows a card's text as its tooltip, icons as words: the pack's German words for them."""
    from generator.export.tts_save import card_object, icon_words
    words = icon_words(german)
    assert words["health"] == "Leben" and words["immobilised"] == "Festgesetzt"
    assert icon_words(load_pack(BOSS_FIGHT)) == {}  # as written: the icons' own names, as before
    tooltip = card_object(german.cards["gorge"], 1, 1, {}, (1.0, 1.0), "x", words)["Description"]
    assert tooltip == "Heile 4 Leben."


CORPUS = Path(__file__).parent / "corpus" / "build"


@pytest.mark.parametrize("build, english, german", [
    ("zero-characters", "a Hero Party build has 0 characters; it needs at least 1",
     "eine Aufstellung für Heldengruppe hat 0 Figuren; nötig sind mindestens 1"),
    ("boss-two-characters", "so print 1 more", "drucke also 1 weitere"),
    ("wrong-side-card", "a Hero Party may only use cards from the Hero Set or Neutral Set",
     "für Heldengruppe sind nur Karten aus Helden-Set oder Neutrales Set erlaubt"),
    ("wrong-kind", "Walk is an Action card, but `abilities` takes Ability cards",
     "Gehen ist eine Karte vom Typ Aktion, aber `abilities` nimmt nur Karten vom Typ Fähigkeit"),
    ("requirement", "Battle Fury needs Strength 5 or more; Wren Ashby has 2",
     "Kampfeswut verlangt Stärke 5 oder mehr; Wren Ashby hat 2"),
    ("slots-overflow", "Knuckle Club has 1 equipment slot but carries equipment needing 3",
     "Knöchelkeule hat 1 Ausrüstungsplatz, trägt aber Ausrüstung, die 3 braucht"),
    ("deck-29", "Test Wardens spends 34 of its 100 points, so 66 points are left unspent",
     "Test Wardens gibt 34 von 100 Punkten aus; 66 Punkte bleiben ungenutzt"),
])
def test_the_default_rule_messages_speak_the_packs_language(build, english, german):
    """The checks' own messages (no message in game.yaml) are pnp's words of the kit: German
    under --lang de from Boss Fight's de.po, English as before without it."""
    args = ["validate", str(CORPUS / f"{build}.yaml"), "--pack", str(BOSS_FIGHT)]
    en, de = CliRunner().invoke(main, args), CliRunner().invoke(main, args + ["--lang", "de"])
    assert en.exit_code == de.exit_code == 1
    assert english in en.output and german not in en.output
    assert german in de.output and english not in de.output


def test_german_rule_messages_count_in_german_plural_forms(german):
    """pnp's counted words reach the German pack as plural entries (`pnp translate`): a deck one
    card over says "nimm 1 Karte heraus", three over "nimm 3 Karten heraus", never "Karte(n)";
    the English pack says "remove 1 card" / "remove 3 cards" as before."""
    from generator.core.yamlio import Document
    from generator.pack.load import build_from_document
    from generator.rules.engine import validate_build
    from generator.web.common import preset_docs

    def fixes(pack, extra: int) -> list[str]:
        doc = preset_docs(pack)["party-oathsworn"][0]
        char = dict(doc["characters"][0])
        deck = dict(char["deck"])
        first = next(iter(deck))
        deck[first] += extra
        char["deck"] = deck
        build = build_from_document(Document("b.yaml", {**doc, "characters": [char, *doc["characters"][1:]]}), pack)
        report = validate_build(pack, build)
        return [f"{v.message} → {v.fix}" for v in report.violations if v.rule == "deck-size"] or \
            [f"{v.rule}: {v.message} → {v.fix}" for v in report.violations]

    english = load_pack(BOSS_FIGHT)
    one, three = fixes(german, 1), fixes(german, 3)
    assert any("nimm 1 Karte heraus" in f for f in one), one
    assert any("nimm 3 Karten heraus" in f for f in three), three
    assert not any("(n)" in f or "(s)" in f for f in one + three)
    assert any("remove 1 card" in f and "remove 1 cards" not in f for f in fixes(english, 1))
    assert any("remove 3 cards" in f for f in fixes(english, 3))


def test_no_german_entry_writes_a_bracketed_plural():
    """German says "1 Karte" and "3 Karten" (plural entries) or words its sentence for any number;
    never "Karte(n)", "weitere(s)": not in the pack's translation nor in the builder's words."""
    from generator.pack.translations.catalog import forms_of
    from generator.web.words import LOCALE
    bracketed = re.compile(r"\w\((?:n|en|e|s|r)\)")
    for path in (PO, LOCALE / "de.po"):
        found = [form for m in read_catalog(path, "de") if m.id for form in forms_of(m) if bracketed.search(form)]
        assert found == [], (path.name, found)
