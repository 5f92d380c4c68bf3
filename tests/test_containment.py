"""Containment: a pack or build from a stranger cannot make the tool read anything outside the
pack, nor reach Python's internals, files or the environment from its templates.

- Jinja in layouts and rule chapters runs in a sandbox with no loader: attribute tricks,
  includes, imports and the environment are refused with an error naming the template.
- Every path a pack names (art, fonts, card files, presets, maps, chapters, layouts) must
  resolve inside the pack: absolute paths, `..` and symbolic links that lead out are refused
  with a clear error; links that stay inside are fine.
- A pack may bring its own TrueType fonts (`fonts:` in game.yaml), checked the same way.
"""

from __future__ import annotations

import os
import re
import shutil
import uuid
from pathlib import Path

import pytest
import reportlab
import yaml
from click.testing import CliRunner
from jinja2.exceptions import SecurityError, TemplateError

from generator.cli import main
from generator.core.errors import InputError, Location
from generator.pack.load import load_pack
from generator.core.paths import resolve_inside
from generator.render.base.layout import make_environment

REPO = Path(__file__).resolve().parents[1]
PACK_DIR = REPO / "card_data" / "boss_fight"
VERA = Path(reportlab.__file__).parent / "fonts" / "Vera.ttf"
SECRET = "pnp-secret-" + uuid.uuid4().hex


@pytest.fixture(scope="module")
def pack():
    return load_pack(PACK_DIR)


@pytest.fixture
def pack_copy(tmp_path):
    root = tmp_path / "pack"
    shutil.copytree(PACK_DIR, root)
    return root


def run(*args):
    result = CliRunner().invoke(main, [str(a) for a in args])
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


# ---- the Jinja sandbox ------------------------------------------------------------------------

HOSTILE = [
    "{{ card.__class__ }}",
    "{{ card.__class__.__mro__[1].__subclasses__() }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ card.__dict__ }}",
    "{{ card.__getattr__('__globals__') }}",
    "{{ card.location.__class__.__init__.__globals__ }}",
    "{{ cycler.__init__.__globals__.os.environ }}",
    "{{ joiner.__init__.__globals__.os.environ }}",
    "{{ namespace.__init__.__globals__.os.environ }}",
    "{{ lipsum.__globals__['os'].environ }}",
    "{{ lipsum.__globals__.__builtins__.open('/etc/passwd').read() }}",
    "{{ range.__self__ }}",
    "{{ self.__init__.__globals__ }}",
    "{{ self._TemplateReference__context }}",
    "{{ card | attr('__class__') }}",
    "{{ card | attr('__dict__') }}",
    "{{ '{0.__class__.__mro__}'.format(card) }}",
    "{{ '{0.__init__.__globals__}'.format(cycler) }}",
    "{{ '%s' | format(card.__class__) }}",
    "{{ config }}",
    "{{ environ }}",
    "{{ os.environ }}",
    "{{ request }}",
    "{{ __builtins__ }}",
    "{% include '/etc/passwd' %}",
    "{% include 'templates/cards/base.yaml' %}",
    "{% import 'os' as os %}{{ os.environ }}",
    "{% from 'os' import environ %}{{ environ }}",
    "{% extends '/etc/passwd' %}",
    "{{ card.fields.update({'x': 1}) }}",
    "{{ card.fields.clear() }}",
    "{{ stats.pop('health') }}",
    "{{ keywords.setdefault('x', 1) }}",
    "{{ pack.__class__.__subclasses__() }}",
    "{{ set.__class__.__base__.__subclasses__() }}",
    "{{ type.__class__ }}",
]


@pytest.fixture(scope="module")
def layout_context(pack):
    from generator.render.cards.faces import CardShared
    shared = CardShared(pack)
    card = pack.cards["walk"]
    return shared.context(card, card.set, card.type, 1, 1)


@pytest.mark.parametrize("source", HOSTILE)
def test_layout_jinja_cannot_reach_internals_files_or_the_environment(source, layout_context, monkeypatch, pack):
    monkeypatch.setenv("PNP_CONTAINMENT_SECRET", SECRET)
    fields_before = dict(pack.cards["walk"].fields)
    env = make_environment()
    try:
        out = env.from_string(source).render(layout_context)
    except (SecurityError, TemplateError, TypeError) as exc:  # TypeError: "no loader" for include/import
        assert SECRET not in str(exc)
    else:
        pytest.fail(f"the sandbox let `{source}` render: {out[:200]!r}")
    assert pack.cards["walk"].fields == fields_before
    assert env.loader is None


def test_sandbox_errors_reach_the_user_as_layout_errors_with_a_location(pack):
    from generator.render.base.layout import Element, Layout
    element = Element(id="title", kind="text", text="{{ card.__class__ }}")
    layout = Layout("action", "templates/cards/action.yaml", [], [element], make_environment(),
                    {id(element): Location("templates/cards/action.yaml", 7, 5)})
    with pytest.raises(InputError) as caught:
        layout.render(element.text, {"card": pack.cards["walk"]}, element)
    (problem,) = caught.value.problems
    assert problem.code == "layout.template"
    assert str(problem.location) == "templates/cards/action.yaml:7:5"
    assert "unsafe" in problem.message and "walk" in problem.message


def test_the_sandbox_still_reads_what_layouts_need(layout_context):
    env = make_environment()
    out = env.from_string("{{ card.name }}|{{ card.action_type | lower }}|{{ set.color | tint(0.5) }}|"
                          "{{ type.name }}|{{ stats.health.name }}|{{ pack.name }}").render(layout_context)
    assert out == "Walk|move|#a4a4a4|Action|Health|Boss Fight"


@pytest.mark.parametrize("source", ["{{ card('walk').__class__ }}", "{{ game.__class__.__subclasses__() }}",
                                    "{% include 'rules/01-introduction.md' %}",
                                    "{{ cycler.__init__.__globals__.os.environ }}", "{{ cards[0].__dict__ }}"])
def test_rule_chapter_jinja_is_sandboxed_too(source, pack, monkeypatch):
    from generator.render.rulebook.templating import environment, render_template, template_context
    monkeypatch.setenv("PNP_CONTAINMENT_SECRET", SECRET)
    with pytest.raises(InputError) as caught:
        render_template(environment(), "# Rules\n\nSome text.\n\n" + source + "\n", template_context(pack),
                        "card_data/boss_fight/rules/99-hostile.md")
    (problem,) = caught.value.problems
    assert problem.code == "rules.template"
    assert problem.location.file.endswith("99-hostile.md") and problem.location.line == 5
    assert SECRET not in problem.message


# ---- paths the pack names -----------------------------------------------------------------------


def where() -> Location:
    return Location("cards/x.yaml", 4, 10)


@pytest.mark.parametrize("relative, message", [
    ("/etc/passwd", "is absolute"),
    ("\\\\server\\share\\x.png", "is absolute"),
    ("C:\\Windows\\x.png", "is absolute"),
    ("c:x.png", "is absolute"),
    ("../outside.png", "leads outside the pack"),
    ("art/../../outside.png", "leads outside the pack"),
    ("art/../../../../../../../../etc/passwd", "leads outside the pack"),
])
def test_paths_out_of_the_pack_are_refused(tmp_path, relative, message):
    root = tmp_path / "pack"
    (root / "art").mkdir(parents=True)
    (tmp_path / "outside.png").write_bytes(b"x")
    with pytest.raises(InputError) as caught:
        resolve_inside(root, relative, where(), "art")
    (problem,) = caught.value.problems
    assert problem.code == "path.outside" and message in problem.message
    assert problem.location == where() and problem.fix


def test_links_that_lead_out_are_refused_and_links_inside_are_fine(tmp_path):
    root = tmp_path / "pack"
    (root / "art").mkdir(parents=True)
    (root / "art" / "real.png").write_bytes(b"x")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.png").write_bytes(b"x")
    (root / "art" / "link-out.png").symlink_to(outside / "secret.png")
    (root / "art" / "link-in.png").symlink_to(root / "art" / "real.png")
    (root / "linked-dir").symlink_to(outside, target_is_directory=True)
    (root / "loop.png").symlink_to(root / "loop.png")
    for relative in ("art/link-out.png", "linked-dir/secret.png"):
        with pytest.raises(InputError) as caught:
            resolve_inside(root, relative, where(), "art")
        assert caught.value.problems[0].code == "path.outside"
    assert resolve_inside(root, "art/link-in.png", where()) == (root / "art" / "real.png").resolve()
    assert resolve_inside(root, "art/../art/real.png", where()) == (root / "art" / "real.png").resolve()
    with pytest.raises(InputError) as caught:
        resolve_inside(root, "loop.png", where())
    assert caught.value.problems[0].code in ("path.invalid", "path.missing")


def test_missing_and_odd_paths_are_clear_errors(tmp_path):
    root = tmp_path / "pack"
    (root / "art").mkdir(parents=True)
    for relative, code in [("art/none.png", "path.missing"), ("art", "path.missing"), ("", "path.missing"),
                           ("~/x.png", "path.missing"), ("art/" + "x" * 5000 + ".png", "path.invalid")]:
        with pytest.raises(InputError) as caught:
            resolve_inside(root, relative, where())
        assert caught.value.problems[0].code == code, relative


@pytest.mark.parametrize("part, name", [("cards", "zz.yaml"), ("presets", "zz.yaml"), ("maps", "zz.yaml"),
                                        ("rules", "99-zz.md")])
def test_pack_files_linked_from_outside_are_refused(pack_copy, tmp_path, part, name):
    outside = tmp_path / "outside" / name
    outside.parent.mkdir()
    source = {"cards": PACK_DIR / "cards" / "neutral.yaml", "presets": PACK_DIR / "presets" / "party-shieldwall.yaml",
              "maps": PACK_DIR / "maps" / "caldera.yaml", "rules": PACK_DIR / "rules" / "01-introduction.md"}[part]
    outside.write_bytes(source.read_bytes())
    (pack_copy / part / name).symlink_to(outside)
    result = run("validate", pack_copy)
    assert result.exit_code == 2
    assert "path.outside" in result.output and f"{name}:1:1" in result.output
    assert "leads outside the pack" in result.output


def test_a_game_yaml_linked_from_outside_is_refused(pack_copy, tmp_path):
    outside = tmp_path / "game.yaml"
    shutil.move(pack_copy / "game.yaml", outside)
    (pack_copy / "game.yaml").symlink_to(outside)
    result = run("validate", pack_copy)
    assert result.exit_code == 2 and "path.outside" in result.output


def test_a_link_inside_the_pack_is_fine(pack_copy):
    (pack_copy / "cards" / "neutral.yaml").rename(pack_copy / "neutral.txt")
    (pack_copy / "cards" / "neutral.yaml").symlink_to(pack_copy / "neutral.txt")
    assert run("validate", pack_copy).exit_code == 0


def test_card_art_outside_the_pack_is_refused_at_validation(pack_copy):
    neutral = pack_copy / "cards" / "neutral.yaml"
    text = neutral.read_text(encoding="utf-8")
    neutral.write_text(text.replace("    art: {icon: walk}\n", "    art: ../../../etc/hostname\n", 1),
                       encoding="utf-8")
    result = run("validate", pack_copy)
    assert result.exit_code == 2
    assert "path.outside" in result.output and "neutral.yaml:7:10" in result.output


def test_card_art_inside_the_pack_prints(pack_copy, tmp_path):
    from PIL import Image
    (pack_copy / "art").mkdir()
    Image.new("RGB", (40, 30), "#884422").save(pack_copy / "art" / "walk.png")
    neutral = pack_copy / "cards" / "neutral.yaml"
    text = neutral.read_text(encoding="utf-8")
    neutral.write_text(text.replace("    art: {icon: walk}\n", "    art: art/walk.png\n", 1),
                       encoding="utf-8")
    build = tmp_path / "walk.yaml"
    build.write_text("pack: boss_fight\nname: W\nside: hero\ncharacters:\n  - hero: wren-ashby\n    deck: {walk: 1}\n",
                     encoding="utf-8")
    result = run("build", pack_copy, "--build", build, "--only", "cards", "-o", tmp_path / "out")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "out" / "walk-cards.pdf").read_bytes().startswith(b"%PDF")


def test_layouts_are_named_not_pathed(pack_copy, tmp_path):
    """`extends:` names a layout; a path (to a .yaml elsewhere on the machine) is not followed."""
    outside = tmp_path / "evil.yaml"
    outside.write_text("elements: []\n", encoding="utf-8")
    from generator.render.base.layout import LayoutSet
    layouts = LayoutSet([pack_copy / "templates" / "cards", REPO / "templates" / "cards"])
    for name in ("../../evil", str(tmp_path / "evil"), "..", "a/b", ""):
        assert layouts.path_of(name) is None


def test_counter_art_outside_the_pack_is_refused(pack_copy):
    game = pack_copy / "game.yaml"
    data = yaml.safe_load(game.read_text(encoding="utf-8"))
    if not (data.get("pieces") or {}).get("counters"):
        pytest.skip("the pack declares no counters")
    text = game.read_text(encoding="utf-8")
    marker = "  counters:\n"
    assert marker in text
    game.write_text(text.replace(marker, marker + "    - {id: zz-evil, art: ../../../../etc/hostname}\n", 1),
                    encoding="utf-8")
    result = run("validate", pack_copy)
    assert result.exit_code == 2
    assert "path.outside" in result.output and "game.yaml:" in result.output


# ---- a pack's own fonts ---------------------------------------------------------------------------


def add_fonts(pack_copy: Path, fonts: dict) -> None:
    """The styles given, as the pack's own fonts (its display face taken out, so they are all it names)."""
    game = pack_copy / "game.yaml"
    lines = "".join(f"  {style}: {path}\n" for style, path in fonts.items())
    text = re.sub(r"^fonts:\n(  .*\n)*", "", game.read_text(encoding="utf-8"), flags=re.M)
    game.write_text(text + "fonts:\n" + lines, encoding="utf-8")


def test_a_pack_font_inside_the_pack_is_accepted_and_registered(pack_copy):
    from generator.render.cards.faces import CardShared
    from generator.pack.assets import pack_font_name
    (pack_copy / "fonts").mkdir()
    shutil.copy(VERA, pack_copy / "fonts" / "Body.ttf")
    add_fonts(pack_copy, {"regular": "fonts/Body.ttf"})
    assert run("validate", pack_copy).exit_code == 0
    pack = load_pack(pack_copy)
    assert pack.spec.fonts == {"regular": "fonts/Body.ttf"}
    shared = CardShared(pack)
    from reportlab.pdfbase import pdfmetrics
    name = shared.fonts["regular"]
    assert name == pack_font_name(pack_copy / "fonts" / "Body.ttf") and name in pdfmetrics.getRegisteredFontNames()


@pytest.mark.parametrize("path, code, message", [
    ("/usr/share/fonts/truetype/x.ttf", "path.outside", "is absolute"),
    ("../../outside.ttf", "path.outside", "leads outside the pack"),
    ("fonts/none.ttf", "path.missing", "does not exist"),
    ("fonts/link.ttf", "path.outside", "leads outside the pack"),
    ("fonts/broken.ttf", "font.corrupt", "cannot be used"),
    ("fonts/Body.otf", "font.corrupt", "only TrueType"),
])
def test_bad_pack_fonts_are_refused_with_the_line_of_game_yaml(pack_copy, tmp_path, path, code, message):
    (pack_copy / "fonts").mkdir()
    (tmp_path / "outside.ttf").write_bytes(VERA.read_bytes())
    (pack_copy / "fonts" / "link.ttf").symlink_to(tmp_path / "outside.ttf")
    (pack_copy / "fonts" / "broken.ttf").write_bytes(VERA.read_bytes()[:300])
    shutil.copy(VERA, pack_copy / "fonts" / "Body.otf")
    add_fonts(pack_copy, {"bold": path})
    result = run("validate", pack_copy)
    assert result.exit_code == 2
    lines = (pack_copy / "game.yaml").read_text(encoding="utf-8").splitlines()
    line = len(lines)  # the font is the last line written
    assert any(code in l and f"game.yaml:{line}:9" in l and message in l for l in result.output.splitlines()), result.output


def test_a_corrupt_font_stops_a_build_without_touching_the_previous_output(pack_copy, tmp_path):
    build = tmp_path / "walk.yaml"
    build.write_text("pack: boss_fight\nname: W\nside: hero\ncharacters:\n  - hero: wren-ashby\n    deck: {walk: 1}\n",
                     encoding="utf-8")
    out = tmp_path / "out"
    assert run("build", pack_copy, "--build", build, "--only", "cards", "-o", out).exit_code == 0
    before = (out / "walk-cards.pdf").read_bytes()
    (pack_copy / "fonts").mkdir()
    (pack_copy / "fonts" / "Body.ttf").write_bytes(b"\x00\x01\x00\x00" + os.urandom(2000))
    add_fonts(pack_copy, {"regular": "fonts/Body.ttf"})
    result = run("build", pack_copy, "--build", build, "--only", "cards", "-o", out)
    assert result.exit_code == 2 and "font.corrupt" in result.output
    assert (out / "walk-cards.pdf").read_bytes() == before
    assert sorted(p.name for p in out.iterdir()) == ["CREDITS.txt", "walk-cards.pdf"]


def test_card_text_is_set_in_the_pack_font(pack_copy, tmp_path):
    """The pack's regular font is the one the rules text is drawn with, embedded in the PDF."""
    from pypdf import PdfReader

    from generator.kit import pack_faces
    from generator.render.cards.faces import CardShared
    from generator.render.cards.sheets import write_home_sheets
    (pack_copy / "fonts").mkdir()
    # Vera Bold Oblique as the pack's regular face: these cards use no bold italic otherwise
    shutil.copy(VERA.with_name("VeraBI.ttf"), pack_copy / "fonts" / "Body.ttf")
    add_fonts(pack_copy, {"regular": "fonts/Body.ttf"})
    pack = load_pack(pack_copy)
    shared = CardShared(pack)
    out = tmp_path / "cards.pdf"
    write_home_sheets(pack, pack_faces(pack, shared, copies=False)[:2], out, shared=shared)
    fonts = set()
    page = PdfReader(out).pages[0]
    for _, ref in (page["/Resources"].get("/XObject") or {}).items():
        for _, f in ((ref.get_object().get("/Resources") or {}).get("/Font") or {}).items():
            fonts.add(str(f.get_object()["/BaseFont"]))
    for _, f in (page["/Resources"].get("/Font") or {}).items():
        fonts.add(str(f.get_object()["/BaseFont"]))
    assert any(name.endswith("BitstreamVeraSans-BoldOblique") for name in fonts), fonts


def test_one_environment_refuses_every_hostile_template_again_with_its_answers_kept(layout_context, monkeypatch):
    """The sandbox keeps its safe-attribute answers per (class, name): warmed by the reads
    layouts make, asked twice, it still refuses every hostile template, and still reads."""
    from generator.render.base.layout import SAFE_ATTRIBUTE_MEMO
    monkeypatch.setenv("PNP_CONTAINMENT_SECRET", SECRET)
    env = make_environment()
    safe = "{{ card.name }}|{{ stats.health.name }}|{{ card.fields.get('x', 1) }}|{{ set.color | tint(0.5) }}"
    first = env.from_string(safe).render(layout_context)
    for _ in range(2):
        for source in HOSTILE:
            try:
                out = env.from_string(source).render(layout_context)
            except (SecurityError, TemplateError, TypeError) as exc:
                assert SECRET not in str(exc)
            else:
                pytest.fail(f"the sandbox let `{source}` render: {out[:200]!r}")
        assert env.from_string(safe).render(layout_context) == first
    assert 0 < len(env._safe_attributes) < SAFE_ATTRIBUTE_MEMO

    class Liar:  # claims to be a plain dict: the answer for dict must not be used, nor kept
        __class__ = dict
        clear = "not a dict's clear"
    assert not env.is_safe_attribute({}, "clear", {}.clear)  # kept for dict: it would empty it
    assert env.is_safe_attribute(Liar(), "clear", Liar.clear) is False  # asked afresh: Jinja says no too
    assert (Liar, "clear") not in env._safe_attributes and (dict, "clear") in env._safe_attributes

    class Anything:  # has every attribute a template can name
        def __getattr__(self, name):
            return 1
    names = env.from_string("{% for i in range(n) %}{{ thing | attr('x%d' % i) }}{% endfor %}")
    assert names.render(dict(layout_context, thing=Anything(), n=SAFE_ATTRIBUTE_MEMO + 50)) == "1" * (
        SAFE_ATTRIBUTE_MEMO + 50)
    assert len(env._safe_attributes) == SAFE_ATTRIBUTE_MEMO  # made-up names stop adding answers
