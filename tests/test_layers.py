"""The shape of the code stays true: imports point down the layers, no import loops, no
private names borrowed across modules, no module over 600 lines. The layer order is declared
here once (lowest first); docs/architecture.md draws the same picture."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import yaml
from layercheck import check

GENERATOR = Path(__file__).resolve().parents[1] / "generator"

LAYERS = [
    "generator",                  # the package itself (its __init__ holds only the version)
    "generator.core",             # errors, diagnostics, safe writing, path confinement, YAML
    "generator.grids",            # hex and square geometry
    "generator.pack",             # models, loader, schemas, assets, card list, scaffold
    "generator.rules",            # rule primitives, context, engine, audit
    "generator.maps",             # map files, map checks, reachability
    "generator.share",            # share codes
    "generator.render",           # the render package's own __init__
    "generator.render.base",      # fonts, text, icons, art, layouts, pdf output, sheets
    "generator.render.maps",      # map sheets, tiles, overview, PNG export
    "generator.render.pieces",    # counters, figures, trackers, board
    "generator.render.rulebook",  # rulebook and quick reference
    "generator.render.cards",     # card faces and card sheets
    "generator.render.roster",    # a build's roster sheet
    "generator.export",           # PNG and Tabletop Simulator exports
    "generator.kit",              # what a kit is
    "generator.preflight",        # print-service checks of layouts and finished files
    "generator.validate",         # `pnp validate`'s verb: a pack, build or map target checked
    "generator.build",            # how a build runs
    "generator.web",              # the deck builder in the browser (pnp serve)
    "generator.community",        # accounts, the database of builds, published builds, card statistics
    "generator.cli",              # the command line
    "generator.__main__",
]
MAX_LINES = 600

_BELOW_RENDER = {"core", "grids", "pack", "rules", "maps", "share", "render"}
# What each package may import, as the "May import" line of its __init__ docstring says: the
# order above is total, the dependencies are not (maps sits above rules yet may not import it).
# Names are short (`render` admits every render package); a layer always may import itself.
MAY_IMPORT = {
    "generator": set(),
    "generator.core": set(),
    "generator.grids": {"core"},
    "generator.pack": {"core", "grids"},
    "generator.rules": {"core", "grids", "pack"},
    "generator.maps": {"core", "grids", "pack"},
    "generator.share": {"core", "pack"},
    "generator.render": {"core", "grids", "pack", "rules", "maps", "share"},
    "generator.render.base": {"core", "grids", "pack"},
    "generator.render.maps": {"core", "grids", "pack", "maps", "render.base"},
    "generator.render.pieces": {"core", "grids", "pack", "rules", "maps", "render.base", "render.maps"},
    "generator.render.rulebook": {"core", "grids", "pack", "rules", "maps", "render.base", "render.maps"},
    "generator.render.cards": {"core", "grids", "pack", "rules", "maps", "render.base", "render.maps",
                               "render.rulebook"},
    "generator.render.roster": {"core", "grids", "pack", "rules", "share", "render.base"},
    "generator.export": _BELOW_RENDER,
    "generator.kit": _BELOW_RENDER,
    "generator.preflight": _BELOW_RENDER | {"export", "kit"},
    "generator.validate": _BELOW_RENDER | {"kit", "preflight"},
    "generator.build": _BELOW_RENDER | {"export", "kit", "preflight", "validate"},  # validate's verdict first
    "generator.web": _BELOW_RENDER | {"export", "kit", "build"},
    "generator.community": _BELOW_RENDER | {"export", "kit", "build", "web"},
    "generator.cli": _BELOW_RENDER | {"export", "kit", "preflight", "validate", "build", "web", "community"},
    "generator.__main__": {"cli"},
}


def _full(table: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    # every layer may read the package's own __init__ (it holds only the version)
    return {layer: {package} | {f"{package}.{name}" for name in names} for layer, names in table.items()}


def test_imports_point_down_and_never_loop():
    problems = check(GENERATOR, "generator", LAYERS, _full(MAY_IMPORT, "generator"))
    assert problems == [], "\n".join(problems)


def test_every_layer_declares_what_it_may_import():
    assert set(MAY_IMPORT) == set(LAYERS)


def test_no_module_is_over_600_lines():
    long = {str(p.relative_to(GENERATOR)): n for p in GENERATOR.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_every_package_says_what_it_is_for_and_what_it_may_import():
    missing = []
    for init in sorted(GENERATOR.rglob("__init__.py")):
        doc = ast.get_docstring(ast.parse(init.read_text(encoding="utf-8"))) or ""
        if init.parent != GENERATOR and "May import" not in doc:
            missing.append(str(init.relative_to(GENERATOR)))
    assert missing == []


# ---- the checker's own tests: it must fail when the shape is broken ------------------------------


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    root = tmp_path / "toy"
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


TOY_LAYERS = ["toy", "toy.low", "toy.high"]


def test_the_checker_accepts_a_package_whose_imports_point_down(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/a.py": "X = 1\n",
        "high/__init__.py": "",
        "high/b.py": "from toy.low.a import X\nfrom toy.low import a\n",
    })
    assert check(root, "toy", TOY_LAYERS) == []


def test_the_checker_fails_on_a_deliberate_upward_import(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "",
        "low/__init__.py": "",
        "low/a.py": "def f():\n    from toy.high.b import Y  # hidden in a function, still upward\n    return Y\n",
        "high/__init__.py": "",
        "high/b.py": "Y = 2\n",
    })
    problems = check(root, "toy", TOY_LAYERS)
    assert len(problems) == 1
    assert "toy/low/a.py:2" in problems[0] and "imports toy.high.b (toy.high), a higher layer" in problems[0]


def test_the_checker_fails_on_an_upward_import_of_a_module_by_name(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "", "low/__init__.py": "", "high/__init__.py": "", "high/b.py": "",
        "low/a.py": "from toy.high import b\n",
    })
    assert any("a higher layer" in p for p in check(root, "toy", TOY_LAYERS))


def test_the_checker_fails_on_an_import_loop_inside_one_layer(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "", "low/__init__.py": "", "high/__init__.py": "",
        "low/a.py": "from toy.low.b import B\nA = 1\n",
        "low/b.py": "def f():\n    from toy.low.a import A\n    return A\nB = 1\n",
    })
    problems = check(root, "toy", TOY_LAYERS)
    assert problems == ["import loop: toy.low.a -> toy.low.b -> toy.low.a"]


def test_the_checker_ignores_type_only_imports_for_loops_and_flags_private_names(tmp_path):
    root = _package(tmp_path, {
        "__init__.py": "", "low/__init__.py": "", "high/__init__.py": "",
        "low/a.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from toy.low.b import B\nA = 1\n",
        "low/b.py": "from toy.low.a import A\nfrom toy.low.c import _helper\nB = 1\n",
        "low/c.py": "def _helper():\n    pass\n",
    })
    problems = check(root, "toy", TOY_LAYERS)
    assert len(problems) == 1 and "private name(s) _helper" in problems[0]


def test_the_checker_fails_on_a_downward_import_the_layer_does_not_declare(tmp_path):
    """The order is partial: `toy.maps` sits above `toy.rules` but declares only `toy.core`."""
    root = _package(tmp_path, {
        "__init__.py": "", "core/__init__.py": "", "rules/__init__.py": "", "maps/__init__.py": "",
        "core/c.py": "C = 1\n", "rules/r.py": "from toy.core.c import C\nR = C\n",
        "maps/m.py": "from toy.core.c import C\nfrom toy.rules.r import R\n",
    })
    layers = ["toy", "toy.core", "toy.rules", "toy.maps"]
    table = {"toy": set(), "toy.core": set(), "toy.rules": {"toy.core"}, "toy.maps": {"toy.core"}}
    assert check(root, "toy", layers) == []  # the total order alone lets it through
    problems = check(root, "toy", layers, table)
    assert len(problems) == 1
    assert "toy/maps/m.py:2" in problems[0] and "toy.maps does not declare it may import" in problems[0]
    table["toy.maps"].add("toy.rules")
    assert check(root, "toy", layers, table) == []


def test_the_checker_names_a_module_outside_every_layer(tmp_path):
    root = _package(tmp_path, {"__init__.py": "", "stray.py": ""})
    assert any("toy.stray is in no layer" in p for p in check(root, "toy", ["toy.low"]))


def test_the_shared_card_layouts_belong_to_no_game():
    """templates/cards/ is the engine's: the frame, the plain back and the reference card any
    pack may use. A layout named after one game's card type lives in that pack."""
    shared = {p.stem for p in (GENERATOR.parent / "templates" / "cards").glob("*.yaml")}
    assert shared == {"base", "back", "reference"}
    types = set()
    for game in (GENERATOR.parent / "card_data").glob("*/game.yaml"):
        types |= set((yaml.safe_load(game.read_text(encoding="utf-8")) or {}).get("card_types") or {})
    assert not shared & types, "a shared layout is named after a pack's card type"


def _function_level_imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if isinstance(sub, ast.ImportFrom) and sub.level == 0 and sub.module:
                    found.append((sub.lineno, sub.module))
                elif isinstance(sub, ast.Import):
                    found.extend((sub.lineno, alias.name) for alias in sub.names)
    return found


def test_our_own_modules_are_imported_at_the_top_outside_the_cli():
    """A module names what it needs from the project at its top, so its layer shows at a
    glance; only the CLI defers our modules, to keep each command's start-up light."""
    late = [f"{path.relative_to(GENERATOR.parent)}:{line} imports {module} inside a function"
            for path in sorted(GENERATOR.rglob("*.py")) if "cli" not in path.relative_to(GENERATOR).parts
            for line, module in _function_level_imports(path) if module.split(".")[0] == "generator"]
    assert late == []


def test_the_function_level_import_check_sees_a_late_import(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("import os\n\ndef f():\n    from generator.core import errors\n    return errors\n")
    assert _function_level_imports(module) == [(4, "generator.core")]
