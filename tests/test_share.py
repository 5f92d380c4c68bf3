"""Share codes: every preset survives share → unshare; any mistyped character, another pack,
another pack version, changed cards or an unknown card is refused with a clear error; and a
property test over generated builds (names of any text, any cards, attachments, copies)."""

from __future__ import annotations

import shutil
import zlib
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import LEGAL_BOSS, PACK_DIR
from generator.share import codes as share
from generator.cli import main
from generator.core.errors import InputError
from generator.pack.load import build_from_document, load_build, load_pack
from generator.core.yamlio import parse_yaml

PRESETS = sorted(PACK_DIR.glob("presets/*.yaml"))


def roundtrip(pack, build):
    code = share.share_code(pack, build)
    text = share.unshare_text(code, pack)
    back = build_from_document(parse_yaml(text, "unshared.yaml"), pack)
    return code, text, back


def problem_of(excinfo):
    assert len(excinfo.value.problems) == 1, excinfo.value.problems
    return excinfo.value.problems[0]


# ---- every preset ------------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS, ids=[p.stem for p in PRESETS])
def test_every_preset_survives_share_and_unshare(pack, preset):
    build = load_build(preset, pack)
    code, text, back = roundtrip(pack, build)
    assert share.build_signature(back) == share.build_signature(build)
    assert share.share_code(pack, back) == code  # the code is canonical
    assert code.startswith("PNP1-")
    assert set(code[5:]) <= set(share.ALPHABET)
    assert len(code) < 260
    # the file looks like a preset: schema comment first, then the build keys in order
    lines = text.splitlines()
    assert lines[0] == "# yaml-language-server: $schema=schemas/build.boss_fight.schema.json"
    data = yaml.safe_load(text)
    assert list(data) == ["pack", "name", "side", "points_limit", "characters"]
    assert data["pack"] == "boss_fight"
    # deterministic: the same code gives the same bytes
    assert share.unshare_text(code, pack) == text


def test_the_unshared_file_equals_the_preset_data(pack):
    # beyond the Build: the YAML data itself is the preset's, key for key
    preset = PACK_DIR / "presets" / "boss-worldbreaker-titan.yaml"
    code = share.share_code(pack, load_build(preset, pack))
    assert yaml.safe_load(share.unshare_text(code, pack)) == yaml.safe_load(preset.read_text())


def test_schema_comment_is_relative_to_the_output_file(pack, in_repo):
    out = in_repo / "card_data" / "boss_fight" / "presets" / "x.yaml"
    assert share.schema_ref(pack, out) == "../../../schemas/build.boss_fight.schema.json"
    assert share.schema_ref(pack, None) == "schemas/build.boss_fight.schema.json"


def test_codes_differ_for_different_builds_and_hash_is_short(pack):
    codes = {share.share_code(pack, load_build(p, pack)) for p in PRESETS}
    assert len(codes) == len(PRESETS)
    shared = share.encode(pack, load_build(PRESETS[0], pack))
    assert len(shared.hash) == 8 and int(shared.hash, 16) >= 0


# ---- damaged codes ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def boss_code():
    pack = load_pack(PACK_DIR)
    return share.share_code(pack, load_build(PACK_DIR / "presets" / "boss-skitterfang.yaml", pack))


def test_every_single_character_flip_is_rejected(pack, boss_code):
    tried = 0
    for i, original in enumerate(boss_code):
        if i < 5:
            replacements = [ch for ch in "ABCPN0123-" if ch != original]
        else:
            replacements = [ch for ch in share.ALPHABET if ch != original]
        for ch in replacements:
            flipped = boss_code[:i] + ch + boss_code[i + 1:]
            with pytest.raises(InputError) as excinfo:
                share.decode(flipped, pack)
            assert problem_of(excinfo).code in {"share.checksum", "share.format"}, flipped
            tried += 1
    assert tried > 30 * len(boss_code) - 200


def test_flip_message_is_clear(pack, boss_code):
    i = len(boss_code) // 2
    flipped = boss_code[:i] + ("A" if boss_code[i] != "A" else "B") + boss_code[i + 1:]
    with pytest.raises(InputError) as excinfo:
        share.decode(flipped, pack)
    p = problem_of(excinfo)
    assert p.code == "share.checksum"
    assert "damaged" in p.message and "checksum" in p.message
    assert "QR" in p.fix


def test_dropped_doubled_and_swapped_characters_are_rejected(pack, boss_code):
    bad = [boss_code[:-1], boss_code + "0", boss_code[:40] + boss_code[41:],
           boss_code[:40] + boss_code[40] + boss_code[40:]]
    for i in range(5, len(boss_code) - 1):
        if boss_code[i] != boss_code[i + 1]:
            bad.append(boss_code[:i] + boss_code[i + 1] + boss_code[i] + boss_code[i + 2:])
    for code in bad:
        with pytest.raises(InputError):
            share.decode(code, pack)


def test_a_character_outside_the_alphabet_is_named_with_its_column(pack, boss_code):
    with pytest.raises(InputError) as excinfo:
        share.decode(boss_code[:20] + "U" + boss_code[21:], pack)
    p = problem_of(excinfo)
    assert p.code == "share.character"
    assert p.found == "U" and p.location.column == 21


def test_case_spaces_and_look_alikes_are_forgiven(pack, boss_code):
    expected = share.decode(boss_code, pack)
    spaced = " ".join(boss_code[i:i + 5] for i in range(0, len(boss_code), 5))
    assert share.decode(spaced.lower(), pack) == expected
    look_alikes = boss_code[:5] + boss_code[5:].replace("0", "O").replace("1", "l")
    assert look_alikes != boss_code
    assert share.decode("\n" + look_alikes + "\n", pack) == expected


@pytest.mark.parametrize("text,fragment", [
    ("", "empty"), ("hello", "not a pnp share code"), ("XYZ1-ABCD", "not a pnp share code"),
    ("PNP1-", "damaged"), ("PNP1-0", "damaged")])
def test_things_that_are_not_codes(pack, text, fragment):
    with pytest.raises(InputError) as excinfo:
        share.decode(text, pack)
    assert fragment in problem_of(excinfo).message


def test_a_newer_format_says_so(pack, boss_code):
    with pytest.raises(InputError) as excinfo:
        share.decode("PNP2-" + boss_code[5:], pack)
    p = problem_of(excinfo)
    assert p.code == "share.format"
    assert "format 2" in p.message and "newer pnp" in p.message


# ---- the code is tied to one pack version ---------------------------------------------------------


def pack_copy(tmp_path, name="pack", edit=None, extra_cards=None) -> Path:
    root = tmp_path / name
    shutil.copytree(PACK_DIR, root, ignore=shutil.ignore_patterns("art", "rules", "maps"))
    if edit:
        game = root / "game.yaml"
        game.write_text(edit(game.read_text(encoding="utf-8")), encoding="utf-8")
    if extra_cards:
        (root / "cards" / "zz-extra.yaml").write_text(extra_cards, encoding="utf-8")
    return root


def test_another_pack_version_is_refused_by_name(tmp_path, boss_code):
    root = pack_copy(tmp_path, edit=lambda t: t.replace('version: "1.0.0"', 'version: "1.1.0"'))
    newer = load_pack(root)
    with pytest.raises(InputError) as excinfo:
        share.decode(boss_code, newer)
    p = problem_of(excinfo)
    assert p.code == "share.version"
    assert p.message == "this code was made for Boss Fight 1.0.0; you have 1.1.0"
    assert (p.found, p.expected) == ("1.0.0", "1.1.0")


def test_another_pack_is_refused(tmp_path, boss_code):
    root = pack_copy(tmp_path, edit=lambda t: t.replace("id: boss_fight", "id: other_game"))
    with pytest.raises(InputError) as excinfo:
        share.decode(boss_code, load_pack(root))
    p = problem_of(excinfo)
    assert p.code == "share.pack"
    assert "`boss_fight`" in p.message and "`other_game`" in p.message
    assert p.fix == "pass --pack card_data/boss_fight"


def test_cards_changed_under_the_same_version_are_refused(tmp_path, boss_code):
    extra = "cards:\n  - {id: aaa-new-card, name: New Card, type: action, set: neutral, action_type: Move}\n"
    changed = load_pack(pack_copy(tmp_path, extra_cards=extra))
    with pytest.raises(InputError) as excinfo:
        share.decode(boss_code, changed)
    p = problem_of(excinfo)
    assert p.code == "share.cards"
    assert "changed without a new version" in p.message


def forge(pack, body) -> str:
    """A code with a valid checksum around a hand-made payload."""
    w = share._Writer()
    w.text(pack.spec.id)
    w.text(pack.spec.version)
    w.put(share.pack_fingerprint(pack), 16)
    body(w)
    payload = w.to_bytes()
    crc = zlib.crc32(share.PREFIX.encode() + payload).to_bytes(4, "big")
    return share.PREFIX + share._b32encode(payload + crc)


def test_an_unknown_card_number_is_refused(pack):
    width = share._index_width(len(pack.cards))
    assert len(pack.cards) < (1 << width)  # there is room for a number past the last card

    def body(w):
        w.uint(list(pack.spec.sides).index("hero"))
        w.text("Forged")
        w.uint(0)
        w.uint(1)
        w.put(share.NAME_DEFAULT, 2)
        w.uint(1)
        w.put((1 << width) - 1, width)  # no such card
        w.uint(0)

    with pytest.raises(InputError) as excinfo:
        share.decode(forge(pack, body), pack)
    p = problem_of(excinfo)
    assert p.code == "share.unknown-card"
    assert p.message == f"this code names card number {1 << width}, but Boss Fight 1.0.0 has only " \
                        f"{len(pack.cards)} cards"


def test_a_payload_that_stops_early_is_damaged_not_a_traceback(pack):
    with pytest.raises(InputError) as excinfo:
        share.decode(forge(pack, lambda w: w.uint(0)), pack)
    assert problem_of(excinfo).code == "share.damaged"


def test_a_build_with_an_unknown_card_cannot_be_shared(tmp_path, pack):
    path = tmp_path / "b.yaml"
    path.write_text(LEGAL_BOSS.replace("pillar-leg", "pilar-leg"), encoding="utf-8")
    with pytest.raises(InputError) as excinfo:
        share.share_code(pack, load_build(path, pack))
    p = problem_of(excinfo)
    assert p.code == "share.unknown-card"
    assert p.location.line == LEGAL_BOSS.splitlines().index("      - piece: pillar-leg") + 1
    assert p.fix == "did you mean `pillar-leg`?"


# ---- generated builds (hypothesis) ------------------------------------------------------------------

PACK = load_pack(PACK_DIR)
IDS = sorted(PACK.cards)
NAMES = st.text(alphabet=st.characters(exclude_categories=("Cs",)), min_size=1, max_size=80)
CARD = st.sampled_from(IDS)


@st.composite
def build_documents(draw):
    side = draw(st.sampled_from(sorted(PACK.spec.sides)))
    spec = PACK.spec.sides[side]
    name = draw(NAMES)
    doc = {"pack": "boss_fight", "name": name, "side": side}
    limit = draw(st.one_of(st.none(), st.integers(0, 99999), st.sampled_from(sorted(PACK.spec.points_limits))))
    if limit is not None:
        doc["points_limit"] = limit
    characters = []
    for _ in range(draw(st.integers(1, 6))):
        char = {}
        if spec.base.many:
            items = []
            for _ in range(draw(st.integers(0, 12))):
                card = draw(CARD)
                if draw(st.booleans()):
                    items.append(card)  # the short form: just the id
                else:
                    item = {spec.base.item_key: card}
                    if spec.equipment and spec.equipment.attach == "base" and draw(st.booleans()):
                        item["equipment"] = draw(st.lists(CARD, max_size=3))
                    items.append(item)
            char[spec.base.key] = items
            default = None
        else:
            card = draw(CARD)
            char[spec.base.key] = card
            default = PACK.cards[card].name
        choice = draw(st.sampled_from(["none", "build", "default", "own"]))
        if choice == "build":
            char["name"] = name[:80]
        elif choice == "default" and default:
            char["name"] = default
        elif choice == "own":
            char["name"] = draw(NAMES)
        if spec.equipment and spec.equipment.attach == "character" and draw(st.booleans()):
            char["equipment"] = draw(st.lists(CARD, max_size=4))
        if draw(st.booleans()):
            char["abilities"] = draw(st.lists(CARD, max_size=5))
        char["deck"] = draw(st.dictionaries(CARD, st.integers(0, 999), max_size=15))
        characters.append(char)
    doc["characters"] = characters
    return doc


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(build_documents())
def test_generated_builds_survive_share_and_unshare(doc):
    text = yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    build = build_from_document(parse_yaml(text, "generated.yaml"), PACK)
    code, unshared, back = roundtrip(PACK, build)
    assert share.build_signature(back) == share.build_signature(build)
    assert share.share_code(PACK, back) == code
    assert share.decode(code, PACK).hash == share.encode(PACK, build).hash


@settings(max_examples=60, deadline=None)
@given(build_documents(), st.data())
def test_generated_codes_with_one_flipped_character_are_rejected(doc, data):
    build = build_from_document(parse_yaml(yaml.safe_dump(doc, allow_unicode=True), "g.yaml"), PACK)
    code = share.share_code(PACK, build)
    i = data.draw(st.integers(5, len(code) - 1))
    ch = data.draw(st.sampled_from([c for c in share.ALPHABET if c != code[i]]))
    with pytest.raises(InputError):
        share.decode(code[:i] + ch + code[i + 1:], PACK)


# ---- the commands ---------------------------------------------------------------------------------


def test_cli_share_then_unshare_gives_back_the_build(in_repo, tmp_path, pack):
    runner = CliRunner()
    preset = "card_data/boss_fight/presets/party-knives-in-the-dark.yaml"
    result = runner.invoke(main, ["share", preset])
    assert result.exit_code == 0, result.output
    code = result.output.strip()
    assert "\n" not in code and code.startswith("PNP1-")
    out = tmp_path / "back.yaml"
    result = runner.invoke(main, ["unshare", code, "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert share.build_signature(load_build(out, pack)) == share.build_signature(load_build(Path(preset), pack))
    printed = runner.invoke(main, ["unshare", code])
    assert printed.exit_code == 0
    assert yaml.safe_load(printed.output) == yaml.safe_load(out.read_text())
    validated = runner.invoke(main, ["validate", str(out)])
    assert validated.exit_code == 0, validated.output


def test_cli_bad_code_exits_2_with_a_message_and_no_file(in_repo, tmp_path, boss_code):
    out = tmp_path / "never.yaml"
    flipped = boss_code[:30] + ("Z" if boss_code[30] != "Z" else "Y") + boss_code[31:]
    result = CliRunner().invoke(main, ["unshare", flipped, "-o", str(out)])
    assert result.exit_code == 2
    assert "share.checksum" in result.output and "Traceback" not in result.output
    assert not out.exists()


def test_cli_share_of_a_missing_file_exits_2(in_repo):
    result = CliRunner().invoke(main, ["share", "no/such/build.yaml"])
    assert result.exit_code == 2
    assert "no such build file" in result.output
