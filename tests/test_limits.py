"""Limits on what a file may ask of the tool: YAML is read with the safe loader only; files above
the size limit, nesting beyond the depth limit and alias expansion beyond the value limit are
refused with one clear error, quickly; so are template operators that would build enormous
values, and art or font files far larger than any card needs."""

from __future__ import annotations

import contextlib
import re
import signal
import subprocess
import sys
import textwrap
import tracemalloc
from pathlib import Path

import pytest
from jinja2.exceptions import SecurityError

from generator.core import yamlio
from generator.core.errors import InputError, Location
from generator.render.base.layout import make_environment
from generator.core.yamlio import MAX_DEPTH, MAX_FILE_BYTES, MAX_NODES, load_yaml_file, parse_yaml

REPO = Path(__file__).resolve().parents[1]
# Not a speed budget (how fast a refusal is belongs to `make bench`, bench/run.py): a hang guard
# far above the expected time, so a refusal that never ends fails instead of stalling the suite.
HANG_GUARD_S = 120


class Hung(Exception):
    pass


@contextlib.contextmanager
def hang_guard(seconds: float = HANG_GUARD_S):
    """Interrupt the block after `seconds` of real time (the template budget's own timer nests
    inside this one and hands it back what is left)."""
    def on_alarm(signum, frame):
        raise Hung(f"still running after {seconds} s")

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def python_memory_peak():
    """The peak of Python allocations inside the block, in bytes (a bound on work done)."""
    result = {}
    tracemalloc.start()
    try:
        yield result
    finally:
        result["peak"] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()


@pytest.fixture
def values_built(monkeypatch):
    """Counts the YAML values the loader builds (aliases expanded): the work a document costs."""
    counter = {"n": 0}
    build = yamlio._Builder.build

    def counting(self, node, path, depth):
        counter["n"] += 1
        return build(self, node, path, depth)

    monkeypatch.setattr(yamlio._Builder, "build", counting)
    return counter


def refused(text: str, code: str, file: str = "f.yaml"):
    with hang_guard(), pytest.raises(InputError) as caught:
        parse_yaml(text, file)
    problem = caught.value.problems[0]
    assert problem.code == code, caught.value.problems
    assert problem.location.line >= 1 and problem.location.column >= 1
    return problem


# ---- the safe loader only -------------------------------------------------------------------


def test_no_unsafe_yaml_loading_anywhere_in_the_package():
    """Static guard: nothing in generator/ may construct arbitrary Python objects from YAML."""
    unsafe = re.compile(r"yaml\.(load|load_all|unsafe_load|full_load)\(|Loader=yaml\.(Loader|UnsafeLoader|FullLoader)"
                        r"|UnsafeLoader|FullLoader|yaml\.Loader\b")
    offenders = []
    for path in (REPO / "generator").rglob("*.py"):
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if unsafe.search(line):
                offenders.append(f"{path.relative_to(REPO)}:{n}: {line.strip()}")
    assert offenders == []


def test_python_tags_never_run_code(tmp_path):
    marker = tmp_path / "pwned"
    for text in (f"!!python/object/apply:os.system ['touch {marker}']\n",
                 f"a: !!python/object/apply:os.system ['touch {marker}']\n",
                 f"a: !!python/object/new:subprocess.check_output [['touch', '{marker}']]\n",
                 "a: !!python/name:os.system\n",
                 "a: !!python/module:os\n"):
        problem = refused(text, "yaml.tag")
        assert "is not supported" in problem.message
    assert not marker.exists()


@pytest.mark.parametrize("text", ["a: !!set {x, y}\n", "a: !!omap [{x: 1}]\n", "a: !!pairs [{x: 1}]\n",
                                  "a: !custom {x: 1}\n", "a: !custom [1]\n", "a: !custom x\n"])
def test_tags_other_than_plain_values_are_refused(text):
    refused(text, "yaml.tag")


def test_plain_values_keep_their_meaning():
    doc = parse_yaml("a: 1\nb: 2.5\nc: true\nd: ~\ne: text\nf: 2024-01-02\ng: [1, {h: i}]\n", "f.yaml")
    assert doc.data == {"a": 1, "b": 2.5, "c": True, "d": None, "e": "text", "f": "2024-01-02", "g": [1, {"h": "i"}]}


def test_an_impossible_date_is_kept_as_the_text_written():
    assert parse_yaml("when: 2024-13-45\n", "f.yaml").data == {"when": "2024-13-45"}


# ---- file size --------------------------------------------------------------------------------


def test_a_file_above_the_size_limit_is_refused_before_it_is_read(tmp_path):
    path = tmp_path / "huge.yaml"
    line = "# " + "x" * 1021 + "\n"
    path.write_text("name: big\n" + line * (MAX_FILE_BYTES // len(line) + 1), encoding="utf-8")
    assert path.stat().st_size > MAX_FILE_BYTES
    with hang_guard(), python_memory_peak() as memory, pytest.raises(InputError) as caught:
        load_yaml_file(path)
    assert memory["peak"] < MAX_FILE_BYTES // 8  # the 2 MiB file was never read into memory
    (problem,) = caught.value.problems
    assert problem.code == "file.too-large"
    assert "2,097,152" in problem.expected
    assert problem.fix


def test_a_file_just_under_the_limit_is_read(tmp_path):
    path = tmp_path / "big.yaml"
    line = "# " + "x" * 1021 + "\n"
    path.write_text("name: big\n" + line * (MAX_FILE_BYTES // len(line) - 2), encoding="utf-8")
    assert path.stat().st_size <= MAX_FILE_BYTES
    assert load_yaml_file(path).data == {"name": "big"}


def test_the_cli_refuses_a_huge_build_with_exit_2(tmp_path):
    path = tmp_path / "huge.yaml"
    with path.open("w", encoding="utf-8") as f:
        f.write("pack: boss_fight\nname: Huge\nside: hero\ncharacters:\n")
        row = "  - {hero: wren-ashby, deck: {walk: 3, run: 2, jab: 3}}\n"
        for _ in range(MAX_FILE_BYTES // len(row) + 10):
            f.write(row)
    result = subprocess.run([sys.executable, "-m", "generator", "validate", str(path)], cwd=REPO,
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "file.too-large" in result.stderr and "Traceback" not in result.stderr
    assert f"{path.name}:1:1" in result.stderr


# ---- nesting depth ----------------------------------------------------------------------------


def nested_flow(depth: int) -> str:
    return "a: " + "[" * depth + "]" * depth + "\n"


def nested_block(depth: int) -> str:
    return "".join("  " * i + "k:\n" for i in range(depth)) + "  " * depth + "k: v\n"


def test_nesting_up_to_the_limit_is_read():
    assert parse_yaml(nested_flow(MAX_DEPTH - 1), "f.yaml").data["a"] is not None
    parse_yaml(nested_block(MAX_DEPTH - 1), "f.yaml")


@pytest.mark.parametrize("text", [nested_flow(MAX_DEPTH + 1), nested_block(MAX_DEPTH + 1),
                                  "a:\n" + "  " + "- " * (MAX_DEPTH + 1) + "x\n",
                                  "a: " + "{b: " * (MAX_DEPTH + 1) + "1" + "}" * (MAX_DEPTH + 1) + "\n"])
def test_nesting_beyond_the_limit_is_refused(text):
    problem = refused(text, "yaml.too-deep")
    assert f"deeper than {MAX_DEPTH} levels" in problem.message


@pytest.mark.parametrize("depth", [20_000, 300_000, 1_000_000])
def test_extreme_nesting_is_refused_without_crashing(tmp_path, depth):
    """libyaml's composer recurses and dies (SIGSEGV) at a few ten thousand levels, well inside
    the size limit: the depth is checked on the parser's events first. In a subprocess, so a
    crash shows as a crash instead of taking pytest down."""
    path = tmp_path / "deep.yaml"
    path.write_text("a: " + "[" * depth + "]" * depth + "\n" if depth < 500_000 else "a:\n  " + "- " * depth + "x\n",
                    encoding="utf-8")
    assert path.stat().st_size <= MAX_FILE_BYTES * 2
    code = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from generator.core import yamlio
        from generator.core.errors import InputError
        yamlio.MAX_FILE_BYTES = 10 * 1024 * 1024
        try:
            yamlio.load_yaml_file(Path({str(path)!r}))
        except InputError as exc:
            print(exc.problems[0].code)
    """)
    result = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True,
                            timeout=HANG_GUARD_S)
    assert result.returncode == 0, f"crashed with {result.returncode}: {result.stderr[-500:]}"
    assert result.stdout.strip() == "yaml.too-deep"


# ---- alias expansion (billion laughs) ---------------------------------------------------------


def laughs(levels: int, width: int = 10) -> str:
    text = "l0: &l0 [" + ", ".join(["lol"] * width) + "]\n"
    for i in range(1, levels + 1):
        text += f"l{i}: &l{i} [" + ", ".join([f"*l{i - 1}"] * width) + "]\n"
    return text


def test_a_few_aliases_are_fine():
    doc = parse_yaml("base: &b {x: 1, y: [1, 2]}\none: *b\ntwo: *b\n", "f.yaml")
    assert doc.data["one"] == doc.data["two"] == {"x": 1, "y": [1, 2]}


@pytest.mark.parametrize("levels", [6, 9, 30])
def test_alias_expansion_beyond_the_bound_is_refused_quickly(levels, values_built):
    problem = refused(laughs(levels), "yaml.too-large")
    assert f"{MAX_NODES:,}" in problem.message
    assert "remove the aliases" in problem.fix
    assert values_built["n"] == MAX_NODES + 1  # stops at the bound, not at 10 ** levels values


def test_a_wide_alias_fan_out_is_refused(values_built):
    block = "big: &big [" + ", ".join(str(i) for i in range(1000)) + "]\n"
    refused(block + "uses: [" + ", ".join(["*big"] * 400) + "]\n", "yaml.too-large")
    assert values_built["n"] == MAX_NODES + 1  # 400,000 values asked for


def test_many_plain_values_up_to_the_bound_are_read():
    text = "v: [" + ", ".join("1" for _ in range(MAX_NODES // 2)) + "]\n"
    assert len(parse_yaml(text, "f.yaml").data["v"]) == MAX_NODES // 2


# ---- numbers ------------------------------------------------------------------------------------


@pytest.mark.parametrize("value", ["9" * 5000, ".nan", ".inf", "-.Inf", "1.0e+999"])
def test_numbers_that_are_not_numbers_are_refused(value):
    refused(f"copies: {value}\n", "yaml.value")


def test_a_long_but_finite_number_reaches_the_schema_as_a_range_error(tmp_path):
    from generator.pack.load import load_build, load_pack
    pack = load_pack(REPO / "card_data" / "boss_fight")
    path = tmp_path / "b.yaml"
    path.write_text("pack: boss_fight\nname: X\nside: hero\ncharacters:\n  - hero: wren-ashby\n"
                    f"    deck: {{walk: {'9' * 400}}}\n", encoding="utf-8")
    with pytest.raises(InputError) as caught:
        load_build(path, pack)
    (problem,) = caught.value.problems
    assert problem.code == "schema.range" and problem.found.endswith("…") and len(problem.found) <= 60


# ---- templates ------------------------------------------------------------------------------------


@pytest.mark.parametrize("source", [
    "{{ 'x' * 10 ** 9 }}", "{{ [0] * 10 ** 9 }}", "{{ 10 ** 9 * 'x' }}", "{{ 2 ** (10 ** 8) }}",
    "{{ 9 ** 9 ** 9 ** 9 ** 9 }}", "{{ '%0999999999d' % 1 }}", "{{ '{:>999999999}'.format(1) }}",
    "{{ 'x' | center(999999999) }}", "{{ 'x' | indent(999999999, true) }}", "{{ '%099999d' | format(1) }}",
    "{{ range(10 ** 9) | list }}", "{{ 'ab' | replace('', 'x' * 5000) | replace('', 'y' * 5000) }}",
])
def test_templates_cannot_build_enormous_values(source):
    env = make_environment()
    with hang_guard(), python_memory_peak() as memory, pytest.raises((SecurityError, OverflowError)):
        env.from_string(source).render()
    assert memory["peak"] < 16 * 1024 * 1024  # refused before the value is built (each asks for GBs)


@pytest.mark.parametrize("source, expected", [
    ("{{ 'ab' * 3 }}", "ababab"), ("{{ 2 ** 10 }}", "1024"), ("{{ '%03d' % 7 }}", "007"),
    ("{{ '{:>5}'.format('x') }}", "    x"), ("{{ 'x' | center(5) }}", "  x  "), ("{{ 'a-b' | replace('-', '−') }}", "a−b"),
    ("{{ 1.5 ** 2 }}", "2.25"), ("{{ [1, 2] * 2 }}", "[1, 2, 1, 2]"), ("{{ (-2) ** 3 }}", "-8"),
])
def test_ordinary_template_arithmetic_still_works(source, expected):
    assert make_environment().from_string(source).render() == expected


def test_a_layout_element_that_renders_too_much_text_is_refused():
    from generator.render.base.layout import MAX_RENDERED_CHARS, Element, Layout
    env = make_environment()
    layout = Layout("t", "t.yaml", [], [], env, {})
    element = Element(kind="text", text="{{ 'word ' * n }}")
    assert layout.render(element.text, {"n": 10}, element).startswith("word word")
    with pytest.raises(InputError) as caught:
        layout.render(element.text, {"n": MAX_RENDERED_CHARS}, element)
    assert caught.value.problems[0].code == "layout.template"
    assert "characters" in caught.value.problems[0].message


# ---- art and fonts --------------------------------------------------------------------------------


def sparse(path: Path, size: int) -> Path:
    """A file of `size` bytes that costs no disk (sparse): for size limits."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        f.truncate(size)
    return path


class _Card:
    id = "big"
    location = Location("cards/big.yaml", 3, 5)


def test_an_enormous_art_file_is_refused_without_being_read(tmp_path):
    from generator.render.base.art import MAX_ART_BYTES, ArtLibrary
    sparse(tmp_path / "art" / "big.png", MAX_ART_BYTES + 1)
    with pytest.raises(InputError) as caught:
        ArtLibrary(tmp_path).load("art/big.png", _Card())
    (problem,) = caught.value.problems
    assert problem.code == "art.corrupt" and "bytes" in problem.message
    assert problem.location == _Card.location


def test_an_image_with_enormous_dimensions_is_refused_before_decoding(tmp_path, monkeypatch):
    import struct
    import zlib

    import PIL.Image

    from generator.render.base.art import ArtLibrary

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 9_000, 9_000, 8, 2, 0, 0, 0)  # 81 Mpx: under PIL's own bomb limit
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "bomb.png").write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header)
                                                 + chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b""))
    def decoded(*args, **kwargs):
        raise AssertionError("the image was decoded")

    monkeypatch.setattr(PIL.Image.Image, "load", decoded)  # refused from its header alone
    with hang_guard(), pytest.raises(InputError) as caught:
        ArtLibrary(tmp_path).load("art/bomb.png", _Card())
    assert "megapixels" in caught.value.problems[0].message


def test_an_enormous_font_file_is_refused_without_being_read(tmp_path):
    from generator.pack.assets import FontError, MAX_FONT_BYTES, read_ttf
    path = sparse(tmp_path / "fonts" / "Big.ttf", MAX_FONT_BYTES + 1)
    with pytest.raises(FontError) as caught:
        read_ttf(path)
    assert "bytes" in str(caught.value)


def test_yamlio_limits_are_the_documented_ones():
    """README: files over 2 MiB, nesting deeper than 64 levels, alias expansion beyond 200,000 values."""
    assert (yamlio.MAX_FILE_BYTES, yamlio.MAX_DEPTH, yamlio.MAX_NODES) == (2 * 1024 * 1024, 64, 200_000)


# ---- work (never time) ---------------------------------------------------------------------------
# A template's budget counts work (render/base/sandbox.py); tests/test_template_budget.py holds
# the budget's own tests. Here: a runaway layout or chapter ends its build or rulebook with its line.

ENDLESS = "{% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}"


def test_a_template_that_runs_forever_is_stopped_with_an_error():
    env = make_environment()
    with hang_guard(), pytest.raises(SecurityError, match="steps of work"):
        env.from_string(ENDLESS).render()
    # honest work is not cut short: a hundred thousand items through three filters
    from generator.render.base import layout as layout_module
    expression = env.compile_expression("range(100000) | map('string') | list | length")
    assert layout_module.run_within_budget(lambda: expression()) == 100000


def test_an_endless_layout_ends_the_build_with_a_layout_error(tmp_path, monkeypatch):
    import shutil

    from click.testing import CliRunner

    from generator.cli import main
    from generator.render.base import sandbox
    monkeypatch.setattr(sandbox, "MAX_STEPS", 100_000)  # a smaller budget: the same verdict, sooner
    monkeypatch.chdir(REPO)
    pack = tmp_path / "pack"
    shutil.copytree(REPO / "card_data" / "boss_fight", pack)
    (pack / "templates" / "cards" / "action.yaml").write_text(  # replaces the pack's own
        "extends: base\nelements:\n  - {id: title, kind: text, x: 4, y: 3, w: 45, h: 7, text: \"" + ENDLESS + "\"}\n",
        encoding="utf-8")
    with hang_guard():
        result = CliRunner().invoke(main, ["build", str(pack), "--only", "cards", "-o", str(tmp_path / "out")])
    assert result.exit_code == 2, result.output
    assert "layout.template" in result.output and "action.yaml:3:5" in result.output
    assert "steps of work" in result.output
    assert not (tmp_path / "out" / "cards.pdf").exists()


def test_an_endless_rule_chapter_is_stopped_with_its_line(monkeypatch):
    from generator.pack.load import load_pack
    from generator.render.base import sandbox
    from generator.render.rulebook.templating import environment, render_template, template_context
    monkeypatch.setattr(sandbox, "MAX_STEPS", 100_000)
    pack = load_pack(REPO / "card_data" / "boss_fight")
    with hang_guard(), pytest.raises(InputError) as caught:
        render_template(environment(), "# Rules\n\n" + ENDLESS + "\n", template_context(pack), "rules/99-loop.md")
    (problem,) = caught.value.problems
    assert problem.code == "rules.template" and "steps of work" in problem.message
