"""The on-disk cache of compiled templates (render/base/templatecache.py): a second process
compiles nothing, a bad file is ignored and written again, a folder others may write is not
used, errors and outputs are the same with and without it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from generator.core import kept
from generator.core.errors import InputError
from generator.render.base import templatecache
from generator.render.base.layout import make_environment
from generator.render.rulebook.templating import environment, render_template

REPO = Path(__file__).resolve().parents[1]
SOURCES = ["{% for x in xs %}{{ x | upper }}-{% endfor %}", "{{ 'Hi' ~ name }}", "{{ (n * 2) | signed }}"]

# A fresh process's start: its compiles counted (`calls`), a layout's environment (`env`)
_COUNTING = """
import sys
from types import SimpleNamespace
from generator.render.base import sandbox, templatecache
from generator.render.base.layout import make_environment
calls = []
real = sandbox.BoundedSandbox.compile
def counting(self, *a, **k):
    calls.append(1)
    return real(self, *a, **k)
sandbox.BoundedSandbox.compile = counting
env = make_environment()
"""
# Compiles SOURCES in a fresh process, prints how many compiles ran and what the templates render
_SCRIPT = _COUNTING + """
out = [templatecache.from_string(env, s).render(xs=['a', 'b'], name='!', n=3) for s in %r]
print(len(calls), out)
"""


def _compiles(cache: Path) -> tuple[int, str]:
    done = subprocess.run([sys.executable, "-c", _SCRIPT % (SOURCES,)], cwd=REPO, capture_output=True,
                          text=True, timeout=60, env=dict(os.environ, PNP_CACHE_DIR=str(cache)))
    assert done.returncode == 0, done.stderr
    count, out = done.stdout.split(" ", 1)
    return int(count), out


def test_a_second_process_compiles_nothing(tmp_path):
    cache = tmp_path / "cache"
    first = _compiles(cache)
    assert first[0] == len(SOURCES)
    assert oct(cache.stat().st_mode & 0o777) == oct(0o700)
    assert len(list(cache.iterdir())) == len(SOURCES)
    second = _compiles(cache)
    assert second == (0, first[1])
    assert first[1].strip() == "['A-B-', 'Hi!', '+6']"


def _counting(monkeypatch) -> list:
    calls: list = []
    real = type(make_environment()).compile

    def counting(self, *args, **kwargs):
        calls.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(type(make_environment()), "compile", counting)
    return calls


@pytest.mark.parametrize("damage", [b"", b"pnp-template-1", b"garbage" * 20, "flip"])
def test_a_bad_file_is_ignored_and_written_again(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    calls = _counting(monkeypatch)
    env = make_environment()
    assert templatecache.from_string(env, SOURCES[1]).render(name="?") == "Hi?"
    (file,) = tmp_path.iterdir()
    good = file.read_bytes()
    file.write_bytes(good[:-1] + bytes([good[-1] ^ 1]) if damage == "flip" else damage)
    assert templatecache.from_string(env, SOURCES[1]).render(name="?") == "Hi?"
    assert len(calls) == 2 and file.read_bytes() == good
    assert templatecache.from_string(env, SOURCES[1]).render(name="?") == "Hi?"
    assert len(calls) == 2


@pytest.mark.parametrize("mode", [0o777, 0o750, 0o705])
def test_a_folder_open_to_others_is_not_used(tmp_path, monkeypatch, mode):
    cache = tmp_path / "shared"
    cache.mkdir()
    cache.chmod(mode)
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    calls = _counting(monkeypatch)
    env = make_environment()
    for _ in range(2):
        assert templatecache.from_string(env, SOURCES[1]).render(name="?") == "Hi?"
    assert len(calls) == 2 and list(cache.iterdir()) == []


def test_no_folder_to_be_had_means_no_cache(tmp_path, monkeypatch):
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "file" / "under"))
    calls = _counting(monkeypatch)
    assert templatecache.from_string(make_environment(), SOURCES[1]).render(name="?") == "Hi?"
    assert len(calls) == 1


def test_the_filters_an_environment_has_are_part_of_the_key(tmp_path, monkeypatch):
    """`md` exists in the rulebook's environment only: a layout must still be refused it."""
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    source = "{{ 'a|b' | md }}"
    assert templatecache.from_string(environment(), source).render() == "a\\|b"
    with pytest.raises(Exception, match="No filter named 'md'"):
        templatecache.from_string(make_environment(), source)


def test_a_bad_template_says_the_same_with_and_without_the_cache(tmp_path, monkeypatch):
    source = "# Rules\n\nfine {{ 1 }}\n{% for x in %}\n"
    said = []
    for cache in (tmp_path / "a", tmp_path / "a", tmp_path / "open"):
        if cache.name == "open":
            cache.mkdir(mode=0o777)
            cache.chmod(0o777)
        monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
        with pytest.raises(InputError) as caught:
            render_template(make_environment(), source, {}, "rules/bad.md")
        said.append(str(caught.value))
    assert said[0] == said[1] == said[2] and "rules/bad.md:4" in said[0]
    assert list((tmp_path / "a").iterdir()) == []  # only what compiled is kept


def _cards(tmp_path: Path, name: str, cache: Path, **env: str) -> dict[str, bytes]:
    out = tmp_path / name
    done = subprocess.run([sys.executable, "-m", "generator", "build", "card_data/boss_fight", "--only", "cards",
                           "-o", str(out)], cwd=REPO, capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PNP_CACHE_DIR=str(cache), **env))
    assert done.returncode == 0, done.stderr
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def test_the_cards_are_byte_identical_cold_warm_and_without_cache(tmp_path):
    shared = tmp_path / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)  # not used: the build compiles everything
    without = _cards(tmp_path, "without", shared)
    cold = _cards(tmp_path, "cold", tmp_path / "cache")
    assert len(list((tmp_path / "cache").iterdir())) > 20
    warm = _cards(tmp_path, "warm", tmp_path / "cache")
    assert without and without == cold == warm


def test_pnp_no_cache_turns_the_folder_off(tmp_path, monkeypatch):
    """PNP_NO_CACHE: a run reads none of the folder and keeps nothing in it (nor makes it), and
    prints the same files."""
    cache = tmp_path / "cache"
    warm = _cards(tmp_path, "warm", cache)
    files = {p.name: p.stat().st_mtime_ns for p in cache.iterdir()}
    assert len(files) > 20
    assert _cards(tmp_path, "off", cache, PNP_NO_CACHE="1") == warm
    assert {p.name: p.stat().st_mtime_ns for p in cache.iterdir()} == files
    never = tmp_path / "never"
    assert _cards(tmp_path, "off-new", never, PNP_NO_CACHE="1") == warm
    assert not never.exists()
    monkeypatch.setenv("PNP_CACHE_DIR", str(cache))
    monkeypatch.setenv("PNP_NO_CACHE", "1")
    assert kept.private_dir() is None


def test_the_folder_is_bounded(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(kept, "MAX_FILES", 4)  # the folder's bound (core/kept.py, which the templates' cache uses)
    monkeypatch.setattr(kept, "_written", {})  # no folder bounded by this process yet
    for n in range(5):  # five files, older first
        (tmp_path / f"old{n}").write_bytes(b"x")
        os.utime(tmp_path / f"old{n}", ns=(n * 10**9, n * 10**9))
    templatecache.from_string(make_environment(), "{{ 'new' }}")
    left = sorted(p.name for p in tmp_path.iterdir())
    assert len(left) == 3 and "old0" not in left and "old4" in left  # the oldest went first
    assert templatecache.from_string(make_environment(), "{{ 'new' }}").render() == "new"


# Layouts' `when:` and other expressions: compiled as Jinja compiles them, kept like templates
EXPRESSIONS = ["card.cost > 2 and 'x' in tags", "(n * 2) | signed", "tags | join('-') ~ '%}'", "1"]
_EXPRESSIONS = _COUNTING + """
values = dict(card=SimpleNamespace(cost=3), tags=['x', 'y'], n=4)
out = [templatecache.expression(env, s)(**values) for s in %r]
print(len(calls), out)
"""


def test_an_expression_is_compiled_once_and_gives_what_jinja_s_gives(tmp_path):
    from types import SimpleNamespace
    cache = tmp_path / "cache"
    said = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _EXPRESSIONS % (EXPRESSIONS,)], cwd=REPO, capture_output=True,
                              text=True, timeout=60, env=dict(os.environ, PNP_CACHE_DIR=str(cache)))
        assert done.returncode == 0, done.stderr
        said.append(done.stdout.split(" ", 1))
    assert [int(s[0]) for s in said] == [len(EXPRESSIONS), 0] and said[0][1] == said[1][1]
    env = make_environment()
    values = dict(card=SimpleNamespace(cost=3), tags=["x", "y"], n=4)
    assert said[0][1].strip() == repr([env.compile_expression(s)(**values) for s in EXPRESSIONS])
    assert said[0][1].strip() == "[True, '+8', 'x-y%}', 1]"
    assert len(list(cache.iterdir())) == len(EXPRESSIONS)


def test_an_expression_and_a_template_of_the_same_text_are_kept_apart(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    env = make_environment()
    for _ in range(2):
        assert templatecache.from_string(env, "1 + 1").render() == "1 + 1"
        assert templatecache.expression(env, "1 + 1")() == 2
    assert len(list(tmp_path.iterdir())) == 2


@pytest.mark.parametrize("source", ["a b", "1 +", "{{ x }}", "x | no_such_filter", ""])
def test_a_bad_expression_says_what_jinja_says_and_is_not_kept(tmp_path, monkeypatch, source):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    env = make_environment()
    with pytest.raises(Exception) as jinja:
        env.compile_expression(source)
    with pytest.raises(type(jinja.value)) as cached:
        templatecache.expression(env, source)
    assert str(cached.value) == str(jinja.value)
    assert list(tmp_path.iterdir()) == []
