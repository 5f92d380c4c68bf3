"""The gate `make lint` runs before the tests (and so `make test` and CI): ruff and mypy with the
configuration in pyproject.toml. These tests plant a finding in a temporary file and see each tool
fail on it under the project's own configuration, so a setting that stopped checking shows here."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


def _tool(name: str, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([str(BIN / name), *args], cwd=cwd, capture_output=True, text=True, timeout=300)


def _module(tmp_path: Path, dotted: str, text: str) -> Path:
    """A module at `dotted` under tmp_path (its packages made), so mypy's per-module settings apply."""
    parts = dotted.split(".")
    for i in range(1, len(parts)):
        init = tmp_path.joinpath(*parts[:i], "__init__.py")
        init.parent.mkdir(parents=True, exist_ok=True)
        init.touch()
    path = tmp_path.joinpath(*parts[:-1], parts[-1] + ".py")
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def _mypy(tmp_path: Path, path: Path) -> subprocess.CompletedProcess:
    return _tool("mypy", "--config-file", str(REPO / "pyproject.toml"), "--cache-dir", str(tmp_path / "cache"),
                 str(path.relative_to(tmp_path)), cwd=tmp_path)


def test_make_test_runs_the_gate_first():
    makefile = (REPO / "Makefile").read_text(encoding="utf-8")
    assert re.search(r"^test: lint\b", makefile, re.M)
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", makefile, re.M)
    assert lint and "ruff check generator tests" in lint[1] and "mypy" in lint[1]
    assert "make test" in (REPO / ".ci" / "run").read_text(encoding="utf-8")


def test_mypy_fails_on_a_type_error_anywhere(tmp_path):
    path = _module(tmp_path, "generator.web.planted", """
        def width(text: str) -> int:
            return text  # a str where an int was promised
    """)
    done = _mypy(tmp_path, path)
    assert done.returncode == 1, done.stdout
    assert "planted.py:3: error: Incompatible return value type" in done.stdout


def test_mypy_checks_the_body_of_an_unannotated_function(tmp_path):
    path = _module(tmp_path, "generator.render.planted", """
        def draw():
            return len(3)
    """)
    done = _mypy(tmp_path, path)
    assert done.returncode == 1 and "planted.py:3: error" in done.stdout, done.stdout


def test_mypy_is_strict_on_the_lowest_layers(tmp_path):
    text = """
        def width(text):
            return len(text)
    """
    strict = _mypy(tmp_path, _module(tmp_path, "generator.core.planted", text))
    assert strict.returncode == 1 and "Function is missing a type annotation" in strict.stdout, strict.stdout
    loose = _mypy(tmp_path, _module(tmp_path, "generator.web.planted", text))
    assert loose.returncode == 0, loose.stdout


def test_ruff_fails_on_a_closure_over_a_loop_variable(tmp_path):
    planted = tmp_path / "planted.py"
    planted.write_text(textwrap.dedent("""
        import os

        def later():
            return [lambda: i for i in range(3)]
    """), encoding="utf-8")
    done = _tool("ruff", "check", "--config", str(REPO / "pyproject.toml"), "--no-cache", str(planted), cwd=tmp_path)
    assert done.returncode == 1
    assert "F401" in done.stdout and "B023" in done.stdout, done.stdout


# mypy checks every module of generator/: the not-yet-clean list (an `ignore_errors` override, 85 modules when
# this test was written, shrink-only since) was emptied on 2026-11-28 and taken out. Its ceiling is now none:
# no override may exempt a module, and no module may exempt itself with a `# mypy: ignore-errors` line.
def _exempt(text: str) -> list[str]:
    """The modules an `ignore_errors` override of this pyproject.toml text exempts from mypy."""
    overrides = tomllib.loads(text)["tool"]["mypy"].get("overrides", [])
    named = [[o["module"]] if isinstance(o["module"], str) else o["module"] for o in overrides if o.get("ignore_errors")]
    return sorted(m for modules in named for m in modules)


def _self_exempt(root: Path) -> list[str]:
    """The modules under root/generator whose own text turns mypy off for them."""
    return sorted(str(p.relative_to(root)) for p in (root / "generator").rglob("*.py")
                  if re.search(r"^#\s*mypy:\s*ignore[-_]errors", p.read_text(encoding="utf-8"), re.M))


def test_no_module_is_exempt_from_mypy(tmp_path):
    text = (REPO / "pyproject.toml").read_text(encoding="utf-8")
    assert _exempt(text) == [], "type the module instead of exempting it (see `make lint`)"
    assert "Not yet clean" not in text  # the list's comment went with it
    assert _self_exempt(REPO) == []
    # the guard bites: an override put back, or a module that turns mypy off, is seen
    planted = text + '\n[[tool.mypy.overrides]]\nmodule = ["generator.pack.load"]\nignore_errors = true\n'
    assert _exempt(planted) == ["generator.pack.load"]
    _module(tmp_path, "generator.web.planted", """
        # mypy: ignore-errors
        def width(text: str) -> int:
            return text
    """)
    assert _self_exempt(tmp_path) == [str(Path("generator", "web", "planted.py"))]
