"""docs/architecture.md stays true: every module, file, folder and Python name it cites in
backticks exists. A renamed function or a moved module fails here, not in a newcomer's hands."""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
GENERATOR = REPO / "generator"
DOC = REPO / "docs" / "architecture.md"
PACKAGES = {p.name for p in GENERATOR.iterdir() if p.is_dir() and (p / "__init__.py").exists()} | {p.stem for p in GENERATOR.glob("*.py") if not p.stem.startswith("_")}


def _defined_names() -> set[str]:
    """Every top-level and class-level name defined in generator/ (classes, functions, constants)."""
    names: set[str] = set()
    for path in GENERATOR.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
                names.add(node.name)
            elif isinstance(node, ast.Assign):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.add(node.target.id)
    return names


def _resolve_dotted(dotted: str) -> bool:
    """`pack.load.load_pack` or `render.cards.faces.CardShared.x`: the longest importable module
    prefix under generator, then attributes."""
    parts = dotted.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module("generator." + ".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            if not hasattr(obj, attr):
                return False
            obj = getattr(obj, attr)
        return True
    return False


def _path_exists(token: str) -> bool:
    token = token.split(":")[0]  # `rules/context.py:resolve_build`
    if "/" in token:
        return (REPO / token).exists() or (GENERATOR / token).exists()
    # a bare file name (`listen.py`, `game.yaml`): somewhere in the package or a shipped pack
    return any(any(root.rglob(token)) for root in (GENERATOR, REPO / "card_data"))


def cited() -> list[str]:
    return sorted(set(re.findall(r"`([^`\n]+)`", DOC.read_text(encoding="utf-8"))))


def problems_in(tokens: list[str], names: set[str]) -> list[str]:
    out = []
    for token in tokens:
        if re.fullmatch(r"[\w./<>-]+/|[\w./<>-]+\.(py|md|yaml)(:\w+)?", token):  # a file or folder
            if "<" in token:  # a pattern such as cli/<name>.py
                continue
            if not _path_exists(token):
                out.append(f"{token}: no such file or folder")
            if ":" in token and token.split(":")[1] not in names:
                out.append(f"{token}: no name {token.split(':')[1]}")
        elif re.fullmatch(r"[a-z_]+(\.[A-Za-z_]\w*)+", token) and token.split(".")[0] in PACKAGES:
            if not _resolve_dotted(token):
                out.append(f"{token}: no such module or attribute under generator")
        elif re.fullmatch(r"[A-Za-z_]\w*", token) and (re.search(r"[A-Z]", token) or "_" in token.strip("_")):
            # a Python name (CamelCase, UPPER_CASE or snake_case with an underscore)
            if token not in names and token not in PACKAGES:
                out.append(f"{token}: defined nowhere in generator/")
    return out


def test_every_name_architecture_md_cites_exists():
    assert problems_in(cited(), _defined_names()) == []


def test_the_check_fails_on_stale_names():
    names = _defined_names()
    stale = ["rules/no_such.py", "pack.load.no_such_function", "NoSuchClass", "render/nowhere/",
             "rules/context.py:no_such_name"]
    found = problems_in(stale, names)
    assert len(found) == len(stale), found
    assert problems_in(["rules/checks.py", "pack.load.load_pack", "InputError", "render/maps/"], names) == []


@pytest.mark.parametrize("token", ["`kit.pack_faces`", "`core.files.atomic_output`"])
def test_dotted_names_resolve_to_real_objects(token):
    assert _resolve_dotted(token.strip("`"))
