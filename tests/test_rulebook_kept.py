"""What the rulebook keeps to cost less: its chapters' Markdown blocks kept on disk between
processes (render/rulebook/markdown.py: a second process never imports markdown-it, and makes
the same flowables), and a text laid out once on unbroken lines given again at wider widths
(render/rulebook/text.py, Book.layout): the same layout a fresh one would be."""

from __future__ import annotations

import io
import marshal
import os
import subprocess
import sys

import pytest

from generator.render.base import templatecache
from generator.render.rulebook import markdown
from generator.render.rulebook.book import build_rulebook_pdf
from generator.render.rulebook.markdown import Flow, markdown_flowables
from generator.render.rulebook.text import Book, BookStyle

from conftest import REPO

SAMPLE = """# The Title

Some *text* with **bold**, a :sword: icon, `code` and a \\* star; a
soft break.

## A section

1. first item
   continued
2. second item with a [link](http://x.y)
   - nested *one*
   - nested two

     second paragraph of nested two
3. third

> a quote
> > and a deeper one

- last list

### Deeper heading

#### Deepest

| Left | Mid | Right |
|:-----|:---:|------:|
| a    | b   | c     |
| long cell | x | 12 |

```
code line one
  code * two

```

    indented code

---

<div>html block</div>

```diagram line-of-sight
from: [0, 0]
to: [3, -1]
blockers: [[1, 0]]
caption: "A sees B past the *boulder*."
```

Paragraph after &amp; entities &copy;.

5. starts at five
6. six
"""

# What the sample made before its blocks were kept (markdown-it's tokens walked as they came):
# each flowable's type, text, indent, bullet, space after, Markdown line and colour
SAMPLE_FLOWABLES = [
    ("RichText", "Some *text* with **bold**, a :sword: icon, code and a \u2217 star; a soft break.", 0.0, None,
     5.06, 3, "#222222"),
    ("Heading", "**A section**", 0.0, None, 4.14, 6, "#7a1f1f"),
    ("RichText", "first item continued", 14.72, "1.", 2.3, 8, "#222222"),
    ("RichText", "second item with a link", 14.72, "2.", 2.3, 10, "#222222"),
    ("RichText", "nested *one*", 29.44, "\u2013", 2.3, 11, "#222222"),
    ("RichText", "nested two", 29.44, "\u2013", 2.3, 12, "#222222"),
    ("RichText", "second paragraph of nested two", 29.44, None, 2.3, 14, "#222222"),
    ("RichText", "third", 14.72, "3.", 5.52, 15, "#222222"),
    ("RichText", "*a quote*", 11.04, None, 5.06, 17, "#6b6359"),
    ("RichText", "*and a deeper one*", 22.08, None, 5.06, 18, "#6b6359"),
    ("RichText", "last list", 14.72, "\u2022", 5.52, 20, "#222222"),
    ("Heading", "**Deeper heading**", 0.0, None, 2.76, 22, "#7a1f1f"),
    ("Heading", "**Deepest**", 0.0, None, 2.76, 24, "#7a1f1f"),
    ("RichTable", None, 0.0, None, 8.28, 29, None),
    ("RichText", "code line one", 14.72, None, 2.3, 31, "#6b6359"),
    ("RichText", "  code \u2217 two", 14.72, None, 2.3, 31, "#6b6359"),
    ("RichText", "indented code", 14.72, None, 2.3, 37, "#6b6359"),
    ("Rule", None, 0.0, None, 4.0, 39, "#cfc6b0"),
    ("LineOfSightDiagram", None, 0.0, None, 4.0, 43, None),
    ("RichText", "*A sees B past the boulder.*", 0.0, None, 5.06, 43, "#6b6359"),
    ("RichText", "Paragraph after & entities \u00a9.", 0.0, None, 5.06, 50, "#222222"),
    ("RichText", "starts at five", 14.72, "5.", 2.3, 52, "#222222"),
    ("RichText", "six", 14.72, "6.", 5.52, 53, "#222222"),
]


def described(text: str) -> tuple[str | None, list[tuple]]:
    flow = markdown_flowables(Flow(Book(["Stunned"], BookStyle()), 200.0, "t"), text)
    return flow.title, [(type(f).__name__, getattr(f, "text", None), round(getattr(f, "indent", 0.0), 4),
                         getattr(f, "bullet", None), round(f.spaceAfter, 4), getattr(f, "_pnp_line", None),
                         getattr(f, "color", None)) for f in flow.flowables]


def kept_files(folder) -> list:
    return [p for p in folder.iterdir() if p.read_bytes().startswith(markdown._FORMAT)]


def test_the_blocks_make_the_same_flowables_parsed_and_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    markdown._blocks.cache_clear()
    assert described(SAMPLE) == ("The Title", SAMPLE_FLOWABLES)  # parsed, and kept
    assert len(kept_files(tmp_path)) == 1
    markdown._blocks.cache_clear()
    parse = markdown._parse
    monkeypatch.setattr(markdown, "_parse", lambda text: pytest.fail("kept blocks are parsed again"))
    assert described(SAMPLE) == ("The Title", SAMPLE_FLOWABLES)  # loaded
    monkeypatch.setattr(markdown, "_parse", parse)
    markdown._blocks.cache_clear()


@pytest.mark.parametrize("payload", [marshal.dumps([1, 2]), marshal.dumps((("tag",), 3)), b"\xff\x00"])
def test_a_kept_file_that_holds_no_blocks_is_parsed_and_written_again(tmp_path, monkeypatch, payload):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    markdown._blocks.cache_clear()
    want = described(SAMPLE)
    (file,) = kept_files(tmp_path)
    good = file.read_bytes()
    templatecache.keep(file.name, markdown._FORMAT, payload)  # framed and summed as the cache writes
    assert file.read_bytes() != good
    markdown._blocks.cache_clear()
    assert described(SAMPLE) == want
    assert file.read_bytes() == good
    markdown._blocks.cache_clear()


def test_a_folder_open_to_others_keeps_no_blocks(tmp_path, monkeypatch):
    """Blocks are data, but the folder is the compiled templates' (code): it is used on the same
    terms (render/base/templatecache.py), and without it every process parses."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    monkeypatch.setenv("PNP_CACHE_DIR", str(shared))
    for _ in range(2):
        markdown._blocks.cache_clear()
        assert described(SAMPLE) == ("The Title", SAMPLE_FLOWABLES)
    assert list(shared.iterdir()) == []
    markdown._blocks.cache_clear()


def test_an_error_in_a_diagram_is_the_same_from_kept_blocks(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    text = "# T\n\nfine\n\n```diagram line-of-sight\nfrom: A1\nto: [1, 0]\n```\n"
    said = []
    for _ in range(2):
        markdown._blocks.cache_clear()
        with pytest.raises(Exception) as caught:
            described(text)
        said.append(str(caught.value))
    assert said[0] == said[1] and "t:5" in said[0]
    markdown._blocks.cache_clear()



@pytest.mark.parametrize(("scene", "said"), [
    ("from: [0, 0\nto: [1, 0]\n", "the diagram's scene is not YAML: YAML syntax error"),
    ("from: [0, 0]\nfrom: [1, 0]\n", "the diagram's scene is not YAML: duplicate key `from`"),
])
def test_a_diagram_scene_is_read_as_pack_yaml_is(tmp_path, monkeypatch, scene, said):
    # the scene goes through the pack's own YAML reader (core/yamlio.parse_kept): a broken one is
    # one line in the rulebook check, a key given twice refused as in any pack file
    from generator.render.rulebook.diagrams import DiagramError, diagram_flowable
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path))
    with pytest.raises(DiagramError) as caught:
        diagram_flowable("diagram line-of-sight", scene, None)
    assert str(caught.value).startswith(said)

# Lays Boss Fight's rulebook story out as `pnp validate` does and prints whether markdown-it was
# imported, then every flowable of the story (type, text, line)
_STORY = """
import sys
from pathlib import Path
from generator.core.papers import DEFAULT_PAPER
from generator.pack.load import load_pack
from generator.preflight.render_check import rulebook_problems
from generator.render.rulebook.book import Geometry, pack_book, rulebook_story
pack = load_pack(Path("card_data/boss_fight"))
story, _ = rulebook_story(pack, pack_book(pack), Geometry.of(DEFAULT_PAPER))
assert rulebook_problems(pack) == []
inner = [g for f in story for g in getattr(f, "content", None) or [f]]
print("markdown_it" in sys.modules)
print([(type(f).__name__, getattr(f, "text", None), getattr(f, "_pnp_line", None)) for f in inner])
"""


def test_a_second_process_makes_the_same_story_without_markdown_it(tmp_path):
    runs = []
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", _STORY], cwd=REPO, capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, PNP_CACHE_DIR=str(tmp_path)))
        assert done.returncode == 0, done.stderr
        runs.append(done.stdout.split("\n", 1))
    assert runs[0][0] == "True" and runs[1][0] == "False"
    assert runs[0][1] == runs[1][1] and runs[0][1].count("RichText") > 300


def test_a_layout_given_again_at_another_width_is_the_one_made_there(pack, monkeypatch):
    asked = []
    real = Book.layout

    def layout(self, text, width, size, leading, hyphenate=True, font="regular"):
        lay = real(self, text, width, size, leading, hyphenate, font)
        asked.append((self, text, width, size, leading, hyphenate, font, lay))
        return lay

    monkeypatch.setattr(Book, "layout", layout)
    build_rulebook_pdf(pack, io.BytesIO())
    again = 0
    for book, text, width, size, leading, hyphenate, font, lay in asked:
        fresh = book.fitter.layout(text, max(width, size * 2), size, leading, hyphenate, font)
        assert lay == fresh, (text, width)
        known = book._unbroken.get((text, size, leading, hyphenate, font))
        again += known is not None and known[1] is lay and round(width, 2) != round(known[0], 2)
    assert again > 300  # the Card List's and the tables' cells, met in columns of other widths


def test_platypus_is_imported_through_the_rulebook_module_alone():
    """render/rulebook/platypus.py leaves ReportLab's web address pattern to its first use only if
    it imports platypus first: no other module imports platypus itself (reportlab.graphics loads it
    too, for a roster's QR code or a pack's SVG art: a process drawing those pays the pattern)."""
    import ast
    found = []
    for path in sorted((REPO / "generator").rglob("*.py")):
        if path.name == "platypus.py" and path.parent.name == "rulebook":
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:  # the module's own statements
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            found += [f"{path.relative_to(REPO)}:{node.lineno}" for n in names
                      if n.startswith("reportlab.platypus")]
    assert found == []


def test_the_rulebook_stops_on_an_unknown_icon_in_the_quick_reference_sheet(tmp_path):
    """The kit's quick reference skips its own icon check (home_rulebook: `checked=True`) because
    the rulebook, built first, checks every rulebook source, the sheet's template among them."""
    import shutil

    from generator.core.errors import InputError
    from generator.core.resources import TEMPLATES
    from generator.pack.load import load_pack

    root = tmp_path / "battle_bosses"
    shutil.copytree(REPO / "card_data" / "battle_bosses", root)
    (root / "templates" / "rulebook").mkdir(parents=True, exist_ok=True)
    sheet = (TEMPLATES / "rulebook" / "quick-reference.md").read_text(encoding="utf-8")
    (root / "templates" / "rulebook" / "quick-reference.md").write_text(sheet + "\nMind the :hti:.\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        build_rulebook_pdf(load_pack(root), tmp_path / "rulebook.pdf")
    [problem] = info.value.problems
    assert problem.code == "rules.icon" and problem.found == ":hti:"
    assert problem.location.file.endswith("quick-reference.md")


def test_a_paragraph_wrapped_again_is_laid_out_at_the_width_it_is_given():
    """RichText.wrap keeps its layout while the width stays (columns and tables wrap a block again
    and again at one width); another width lays it out there, and a heading's rule is added once."""
    from generator.render.rulebook.text import Heading, RichText

    book = Book([], BookStyle())
    text = "A paragraph long enough to take more lines in a narrow column than in a wide one, " * 3
    para = RichText(book, text)
    narrow = para.wrap(100, 1000)[1]
    wide = para.wrap(300, 1000)[1]
    assert wide < narrow
    assert para.wrap(100, 1000)[1] == narrow and para._layout == book.fitter.layout(text, 100, para.size, para.leading_ratio)
    heading = Heading(book, "Setting up", 13.0, level=1, key="k", rule=True)
    assert heading.wrap(200, 1000) == heading.wrap(200, 1000) == (200, heading._layout.height + 3.0)
