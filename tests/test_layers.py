"""The shape of the code stays true: imports point down the layers, no import loops, no
private names borrowed across modules, no module over 600 lines. The layer order is declared
here once (lowest first); docs/architecture.md draws the same picture."""

from __future__ import annotations

import ast
import re
import shutil
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
    """Short names made dotted. The root is not added to any list: naming `generator` would admit
    every `generator.*` layer. Every layer may read the root's own __init__ (it holds only the
    version); `layercheck.check` allows that one module itself."""
    return {layer: {f"{package}.{name}" for name in names} for layer, names in table.items()}


def test_imports_point_down_and_never_loop():
    problems = check(GENERATOR, "generator", LAYERS, _full(MAY_IMPORT, "generator"))
    assert problems == [], "\n".join(problems)


def _real_copy(tmp_path: Path) -> Path:
    root = tmp_path / "generator"
    shutil.copytree(GENERATOR, root, ignore=shutil.ignore_patterns("__pycache__", "_data"))
    assert check(root, "generator", LAYERS, _full(MAY_IMPORT, "generator")) == []  # the copy is as clean
    return root


def _plant(root: Path, module: str, line: str) -> None:
    path = root / module
    path.write_text(path.read_text(encoding="utf-8") + "\n" + line + "\n", encoding="utf-8")


def test_the_real_check_fails_on_a_forbidden_import_planted_in_a_copy(tmp_path):
    """maps sits above rules in the order but does not declare it: the real table must refuse it."""
    root = _real_copy(tmp_path)
    _plant(root, "maps/checks.py", "from generator.rules.engine import validate_build  # planted")
    problems = check(root, "generator", LAYERS, _full(MAY_IMPORT, "generator"))
    assert len(problems) == 1, problems
    assert "generator/maps/checks.py:" in problems[0]
    assert "generator.maps does not declare it may import" in problems[0]


def test_the_real_check_fails_on_each_layer_importing_one_it_does_not_declare(tmp_path):
    """Every layer is held to its own list: for each, an import of the lowest layer below it that
    it does not declare is planted, and the real check names exactly that import."""
    root = _real_copy(tmp_path)
    table = _full(MAY_IMPORT, "generator")
    planted = {}
    for own, layer in enumerate(LAYERS):
        below = [other for other in LAYERS[1:own] if other not in table[layer]
                 and not any(other.startswith(allowed + ".") for allowed in table[layer])]
        folder = root.joinpath(*layer.split(".")[1:])
        module = folder / "__init__.py" if folder.is_dir() else folder.with_suffix(".py")
        if not below or not module.is_file():
            continue
        _plant(root, str(module.relative_to(root)), f"import {below[0]}  # planted")
        planted[layer] = below[0]
    # build.py declares every layer below it (validate too: it refuses what validate refuses), so it gets none
    assert len(planted) == 13 and {"generator.maps", "generator.kit", "generator.web"} <= set(planted)
    problems = check(root, "generator", LAYERS, table)
    assert len(problems) == len(planted), problems
    for layer, target in planted.items():
        assert any(f"({layer}) imports {target} " in p and "does not declare" in p for p in problems), layer


def test_the_real_check_lets_every_layer_read_the_version_only(tmp_path):
    """The root's own __init__ (the version) is open to all; a module of the root layer is not."""
    root = _real_copy(tmp_path)
    _plant(root, "maps/checks.py", "from generator import __version__  # planted")
    assert check(root, "generator", LAYERS, _full(MAY_IMPORT, "generator")) == []
    (root / "stray.py").write_text("X = 1\n", encoding="utf-8")  # of the root layer, not its __init__
    _plant(root, "maps/checks.py", "from generator.stray import X  # planted")
    problems = check(root, "generator", LAYERS, _full(MAY_IMPORT, "generator"))
    assert len(problems) == 1 and "imports generator.stray (generator), which generator.maps does not" in problems[0]


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
    """templates/cards/ is the engine's: the frame, the plain back and the reference card (and its back) any
    pack may use. A layout named after one game's card type lives in that pack."""
    shared = {p.stem for p in (GENERATOR.parent / "templates" / "cards").glob("*.yaml")}
    assert shared == {"base", "back", "reference", "back-reference"}  # the reference card is two-sided
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


def test_the_architecture_page_says_what_each_package_may_import():
    """docs/architecture.md's table ("May import") and its list of render's packages say what
    MAY_IMPORT says, name for name."""
    text = (GENERATOR.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    said = {}
    for name, column in re.findall(r"^\| `([a-z_.]+)` \|.*\| ([^|]+) \|$", text, re.M):
        layer = "generator." + name.removesuffix(".py")
        names = re.sub(r"\(.*?\)", "", column).strip()
        special = {"nothing of ours": set(), "every other package": set(MAY_IMPORT[layer])}
        said[layer] = special[names] if names in special else {n.strip() for n in names.split(",")}
    for name, column in re.findall(r"^- `(render\.\w+)`: ([a-z., ]+)$", text, re.M):
        said["generator." + name] = {n.strip() for n in column.split(",")}
    expected = {layer: names for layer, names in MAY_IMPORT.items() if layer not in ("generator", "generator.__main__")}
    assert said == expected


def _uncommented_late_imports(path: Path) -> list[int]:
    """Lines of imports of other projects inside functions that no comment explains: a comment
    on the import, on the line above, or above a run of imports it belongs to."""
    lines = path.read_text(encoding="utf-8").split("\n")
    found: list[tuple[int, int]] = []
    for node in ast.walk(ast.parse("\n".join(lines))):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if isinstance(sub, ast.ImportFrom) and sub.level == 0 and sub.module:
                    names = [sub.module]
                elif isinstance(sub, ast.Import):
                    names = [alias.name for alias in sub.names]
                else:
                    continue
                if any(name.split(".")[0] != "generator" for name in names):
                    found.append((sub.lineno, sub.end_lineno or sub.lineno))
    bare, explained = [], set()
    for start, end in sorted(set(found)):
        said = (any("#" in line for line in lines[start - 1:end]) or lines[start - 2].strip().startswith("#")
                or start - 1 in explained)
        if said:
            explained.add(end)
        else:
            bare.append(start)
    return bare


def test_every_late_import_of_another_project_says_why():
    """The house rule (docs/architecture.md): an import inside a function defers a heavy library
    for start-up time, and a comment says so."""
    bare = [f"{path.relative_to(GENERATOR.parent)}:{line}" for path in sorted(GENERATOR.rglob("*.py"))
            for line in _uncommented_late_imports(path)]
    assert bare == []


def test_the_late_import_check_sees_one_without_a_comment(tmp_path):
    module = tmp_path / "m.py"
    module.write_text("def f():\n    # deferred: heavy\n    import pikepdf\n    from PIL import Image\n"
                      "    return pikepdf, Image\n\n\ndef g():\n    import pypdfium2\n    return pypdfium2\n")
    assert _uncommented_late_imports(module) == [9]
