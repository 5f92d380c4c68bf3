"""Output profiles as a registry (export/profile_table.py and export/profiles/): the light
table and the writer modules agree, the table loads no writer, and every registered profile
builds a pack into the files its row promises."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from generator.build import run_build
from generator.export.options import BuildOptions
from generator.export.profile_table import PROFILES
from generator.export.profiles import writer
from generator.pack.load import load_pack, load_presets

REPO = Path(__file__).resolve().parents[1]
MODULES = REPO / "generator" / "export" / "profiles"


def test_the_table_and_the_modules_agree():
    modules = {p.stem for p in MODULES.glob("*.py") if p.stem != "__init__"}
    assert set().union(*(row.modules() for row in PROFILES.values())) == modules
    for name, row in PROFILES.items():
        for part in row.parts:
            module = writer(name, part)
            assert module.NAME == name and callable(module.write) and module.__doc__
        assert row.help and row.parts and row.colors and set(row.colors) <= {"rgb", "cmyk"}


def test_a_module_routed_under_another_name_is_refused(monkeypatch):
    from dataclasses import replace

    import generator.export.profiles as profiles
    monkeypatch.setitem(profiles.PROFILES, "png", replace(PROFILES["png"], module="dtc"))
    with pytest.raises(RuntimeError, match="declares NAME 'dtc'"):
        writer("png")


def test_the_table_and_the_options_load_no_writer():
    code = ("import sys; import generator.export.options, generator.export.profile_table; "
            "print(sorted(m for m in sys.modules if m.startswith(('reportlab', 'generator.render', "
            "'generator.export.profiles'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


@pytest.fixture(scope="module")
def pack():
    return load_pack(REPO / "card_data" / "final_boss")


@pytest.mark.parametrize("name", list(PROFILES))
def test_every_registered_profile_builds(tmp_path, pack, name):
    build = load_presets(pack)[0]
    lines = list(run_build(pack, build, BuildOptions.make(name, only="cards"), tmp_path, stem="b", parallel=False))
    wrote = [line.split()[1] for line in lines if line.startswith("wrote ")]
    assert wrote, lines
    for path in wrote:
        made = Path(path)
        assert made.exists() and made.is_relative_to(tmp_path)
        assert made.name.startswith("b-") or made.parent.name == "tts" or made.name in ("tts", "png-mpc")
        files = [made] if made.is_file() else [f for f in made.rglob("*") if f.is_file()]
        assert files and all(f.stat().st_size > 0 for f in files)
    assert not [p for p in tmp_path.rglob("*") if ".pnp-" in p.name]  # nothing staged left behind
    for folder in [tmp_path] + [p for p in tmp_path.iterdir() if p.is_dir()]:  # who made the art, in each folder
        assert (folder / "CREDITS.txt").read_text().startswith(f"{pack.spec.name} {pack.spec.version}: credits")


def test_the_tts_folder_is_staged_with_the_rest(tmp_path, pack, monkeypatch):
    """A failure while the save is made keeps the previous tts folder whole and leaves no
    temporary folder: the deck sheets, maps and save are swapped in together or not at all."""
    from generator.core.errors import InputError, Location, Problem
    import generator.export.profiles.tts as tts
    (tmp_path / "tts").mkdir()
    (tmp_path / "tts" / "old.json").write_text("{}")

    def fail(*args, **kw):
        raise InputError([Problem("test.fail", "the save failed", Location("test"))])
    monkeypatch.setattr(tts, "write_tts_save", fail)
    with pytest.raises(InputError):
        list(run_build(pack, None, BuildOptions.make("tts"), tmp_path, parallel=False))
    assert [p.name for p in tmp_path.iterdir()] == ["tts"]
    assert [p.name for p in (tmp_path / "tts").iterdir()] == ["old.json"]


def test_the_cards_part_builds_its_faces_once(tmp_path, pack, monkeypatch):
    """The layout checks and the sheets share the faces the build made."""
    import generator.build as build_module
    import generator.preflight.layout as layout
    calls = []
    for module in (build_module, layout):
        real = module.pack_faces
        monkeypatch.setattr(module, "pack_faces", lambda *a, real=real, **kw: calls.append(1) or real(*a, **kw))
    lines = list(run_build(pack, None, BuildOptions.make("home", only="cards"), tmp_path, parallel=False))
    assert any("cards.pdf" in line for line in lines) and len(calls) == 1


@pytest.mark.parametrize("asked, code", [
    ({"paper": "a3"}, "build.option"), ({"duplex": "sideways"}, "build.option"), ({"only": "box"}, "build.option"),
    ({"ink_limit": 401}, "build.option"), ({"cut_inset": 3.5}, "build.option"), ({"back_offset": "40,0"}, None),
    ({"color": "cmyk"}, "build.color"), ({"profile": "poster"}, "build.profile")])
def test_build_options_refuse_a_bad_name_or_bound_once_for_every_face(asked, code):
    """BuildOptions.make checks every option the CLI and the web pass (#24 item 1): each refusal
    is an InputError with its option named; the same option within bounds is taken."""
    from generator.core.errors import InputError
    from generator.export.options import BuildOptions
    with pytest.raises(InputError) as caught:
        BuildOptions.make(**asked)
    if code is not None:
        assert caught.value.problems[0].code == code
    legal = {"paper": "letter", "duplex": "short-edge", "only": "cards", "ink_limit": 400, "cut_inset": 3.0,
             "back_offset": "-1.5,0.5", "color": "rgb", "profile": "png"}
    key = next(iter(asked))
    made = BuildOptions.make(**{key: legal[key]})
    assert getattr(made, key) == ((-1.5, 0.5) if key == "back_offset" else legal[key])


def test_a_service_preset_sets_the_profile_and_its_colour():
    from generator.export.options import BuildOptions
    assert (BuildOptions.make(service="dtc").profile, BuildOptions.make(service="dtc").color) == ("dtc", "cmyk")
    assert BuildOptions.make(service="dtc", color="rgb").color == "rgb"


# what `pnp build --only cards` must not load: the kit's other parts, ReportLab's SVG drawing and
# page layout (platypus), the map painters, validate's drawn verdict (only a refused pack needs it),
# the worker pool's multiprocessing and ctypes (one part starts no pool), importlib.metadata (pydantic's
# plugin loader, which the pnp process stands in for: cli/__init__.py) and the spreadsheet readers' XML
# parser (only a pack with sheets)
NOT_FOR_CARDS = ("generator.render.pieces.document", "generator.export.profiles.home_", "reportlab.graphics",
                 "reportlab.platypus", "generator.render.rulebook.book", "generator.render.maps.document",
                 "generator.render.maps.hexes", "generator.render.maps.square", "generator.validate.packs",
                 "multiprocessing", "ctypes", "importlib.metadata", "xml.etree")


def _loaded_by_a_cards_build(out: Path, first: str = "") -> list[str]:
    """The modules of NOT_FOR_CARDS that `pnp build tactics --only cards` loaded (after `first`)."""
    code = (f"import sys; {first}\nfrom generator.cli import main\n"
            "try:\n    main(sys.argv[1:])\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
            f"print(sorted(m for m in sys.modules if m.startswith({NOT_FOR_CARDS!r})), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code, "build", str(REPO / "card_data" / "tactics"), "--only", "cards",
                           "-q", "-o", str(out)], capture_output=True, text=True, check=True)
    assert (out / "cards.pdf").exists()
    return ast.literal_eval(done.stderr.strip().splitlines()[-1])  # the printed list


def test_a_cards_build_loads_no_other_part(tmp_path):
    """The home kit's pieces, maps and rulebook have writer modules of their own (profile_table's
    part_modules), SVG art loads reportlab.graphics only when drawn, card faces draw hex and square
    shapes from render/maps/shapes.py, and validate's drawn verdict is the command line's to load
    for a refused pack (cli/common.py: refused_verdict): a cards build of a pack with pieces, maps
    and rules (tactics) imports none of them."""
    assert _loaded_by_a_cards_build(tmp_path) == []


def test_the_cards_build_import_check_sees_a_heavy_module_self_test(tmp_path):
    loaded = _loaded_by_a_cards_build(tmp_path, "import generator.validate.packs, importlib.metadata, xml.etree")
    assert {"generator.validate.packs", "importlib.metadata", "xml.etree"} <= set(loaded)
