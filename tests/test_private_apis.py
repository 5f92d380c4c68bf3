"""No module of ours imports a private name (one starting with `_`) from another project, nor
reaches one through a module it imported (`pdfmetrics._fonts`): what another project keeps
private may change in any release. Where no public API does the job, docs/architecture.md says
so under "Other projects' APIs", and the dependency is capped to the versions tested."""

from __future__ import annotations

import ast
from pathlib import Path

from reportlab.pdfbase.pdfmetrics import getFont

from generator.render.base.fonts import REGULAR, register_fonts

GENERATOR = Path(__file__).resolve().parents[1] / "generator"
PUBLIC = {("os", "_exit")}  # documented despite its underscore (a forked worker leaves without clean-up)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def foreign_private_uses(path: Path, package: str = "generator") -> list[str]:
    """`from x import _y`, and `m._y` where `m` names a module imported from another project."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    modules: dict[str, str] = {}  # local name -> the other project's module it is
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top != package:  # `import a.b` binds a; `import a.b as c` binds c to a.b
                    modules[alias.asname or top] = alias.name if alias.asname else top
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            if node.module.split(".")[0] == package:
                continue
            for alias in node.names:
                if _private(alias.name) and (node.module, alias.name) not in PUBLIC:
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                modules.setdefault(alias.asname or alias.name, f"{node.module}.{alias.name}")
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr) and isinstance(node.value, ast.Name)
                and node.value.id in modules and (modules[node.value.id], node.attr) not in PUBLIC):
            found.append(f"{node.lineno}: {modules[node.value.id]}.{node.attr}")
    return found


def test_no_module_uses_a_private_name_of_another_project():
    found = [f"{path.relative_to(GENERATOR.parent)}:{use}" for path in sorted(GENERATOR.rglob("*.py"))
             for use in foreign_private_uses(path)]
    assert found == []


def test_the_check_sees_each_kind_of_private_use(tmp_path):
    planted = tmp_path / "m.py"
    planted.write_text("import os\nfrom reportlab.pdfbase import pdfmetrics\nfrom uvicorn.config import _helper\n"
                       "import pikepdf as pp\nfrom generator.core import files\n\n"
                       "def f():\n    os._exit(0)\n    files._mine\n    pp._core\n    return pdfmetrics._fonts\n")
    assert foreign_private_uses(planted) == ["3: from uvicorn.config import _helper", "10: pikepdf._core",
                                             "11: reportlab.pdfbase.pdfmetrics._fonts"]


def test_the_reportlab_internals_we_lean_on_are_still_there():
    """Attributes of ReportLab's own objects that no public call gives (docs/architecture.md,
    "Other projects' APIs"; pyproject caps ReportLab to the versions tested). If this fails, a
    ReportLab release changed them: fix the modules named before lifting the cap."""
    import io

    from reportlab.pdfgen.canvas import Canvas
    from reportlab.pdfgen.textobject import PDFTextObject
    from reportlab.platypus import Frame, Table

    canvas = Canvas(io.BytesIO())
    # render/base/pdfout.py: each page's stream compressed as it closes, the date pinned
    assert hasattr(canvas, "_doc")
    assert all(hasattr(canvas._doc._timeStamp, a) for a in ("t", "lt", "tzname", "dhh", "dmm"))
    assert hasattr(canvas._doc, "Pages") and hasattr(canvas._doc.Pages, "pages")
    # render/base/textobjects.py: the font a text object is set in (tests/test_ink_record.py checks what it reads)
    text = PDFTextObject(canvas)
    text.setFont("Helvetica-Bold", 9)
    assert (text._fontname, text._fontsize) == ("Helvetica-Bold", 9)
    # render/base/textobjects.py MemoTextObject: a string's operators kept per font state
    # (tests/test_text_memo.py checks the bytes against ReportLab's own encoding)
    assert callable(PDFTextObject._formatText) and text._canvas is canvas
    assert text._curSubset == -1 and text._leading == 9 * 1.2
    # render/base/textobjects.py MemoTextObject.kept: one `_code` entry per operator call, the origin's last
    text.setTextOrigin(12.5, 30)
    assert text._code[-1] == "1 0 0 1 12.5 30 Tm"
    register_fonts()
    assert getFont(REGULAR)._dynamicFont and not getFont("Helvetica")._dynamicFont
    # render/base/recording.py RecordingCanvas.line and .ellipse: the operators ReportLab just wrote,
    # read back from the canvas's own `_code` list (a line is `n x1 y1 m x2 y2 l S`; an ellipse `n`, a
    # move and its curves, then its painting operator) instead of being made again
    canvas.line(1, 2, 3, 4)
    assert canvas._code[-1].split() == ["n", "1", "2", "m", "3", "4", "l", "S"]
    start = len(canvas._code)
    canvas.ellipse(0, 0, 10, 20, stroke=0, fill=1)
    ops = canvas._code[start:]
    assert ops[0] == "n" and ops[1].endswith(" m") and all(op.endswith(" c") for op in ops[2:-1]) and ops[-1] in ("f", "f*")
    # render/base/recording.py RecordingCanvas._string: a plain string drawn by drawString and its
    # kin without a text object, in the canvas's current font, read from its own `_fontname`,
    # `_fontsize` and `_leading`, while ReportLab has no bidi support (`rtlSupport`, which would
    # reorder it); tests/test_map_shortcuts.py compares what it writes and tells with the text object's
    canvas.setFont("Helvetica-Bold", 7)
    assert (canvas._fontname, canvas._fontsize, canvas._leading) == ("Helvetica-Bold", 7, 7 * 1.2)
    from reportlab.pdfgen import textobject
    assert isinstance(textobject.rtlSupport, bool)
    # render/base/pdfout.py: ReportLab's pdfdoc looks its PDFDocEncoding function up by its module
    # name when it encodes, so pnp's faster one (tests/test_pdfout.py: the same bytes) replaces it there
    import inspect

    from reportlab.pdfbase import pdfdoc

    from generator.render.base import pdfout
    # (pdfout keeps ReportLab's own format as it replaces it, below: whether it was imported before
    # this test or not, ReportLab's function is the one read here)
    assert all("pdfdocEnc" in f.__code__.co_names for f in (pdfdoc.PDFString.format, pdfout._FORMAT))
    # and its format and PDFName are replaced by pnp's (the same bytes: tests/test_pdfout.py), which
    # ReportLab's dictionaries, arrays and objects look up by their module names as they write
    assert pdfdoc.format is pdfout.pdf_format and pdfdoc.PDFName is pdfout.pdf_name
    assert "format(PDFName(k),document)" in inspect.getsource(pdfdoc.PDFDictionary.format)
    # a stream's filters encode it through their own `encode` (pdfout's DeflateStore takes the place of
    # the Flate filter's), and ReportLab's drawing modules hold the number formatter under the name fp_str,
    # which pdfout sets to its kept one (tests/test_pdfout.py: the same text)
    assert "f.encode(content)" in inspect.getsource(pdfdoc.PDFStream.format)
    assert pdfdoc.PDFStreamFilterZCompress.encode is pdfout._z_encode
    from reportlab.lib import rl_accel
    from reportlab.pdfgen import canvas as rl_canvas, pathobject
    assert rl_accel.fp_str is rl_canvas.fp_str is pathobject.fp_str is textobject.fp_str is pdfout.fp_str
    # render/rulebook: a table split too small, a column's height left in its frame
    assert hasattr(Table([[1]]), "_cellvalues") and hasattr(Frame(0, 0, 100, 100), "_aH")
    # render/rulebook/tables.py RichTable.always_fits and errors.layout_error: a table's column widths,
    # cell styles (paddings) and spans as given, and each row's height once wrapped
    table = Table([["a", "b"], ["c", "d"]], colWidths=[20, 30])
    assert table._argW == [20, 30] and table._spanCmds == []
    assert table._cellStyles[1][0].topPadding == 3 and table._cellStyles[1][0].bottomPadding == 3
    table.wrapOn(canvas, 100, 100)
    assert len(table._rowHeights) == 2 and all(h > 0 for h in table._rowHeights)


def test_the_rulebook_leaves_two_reportlab_patterns_to_their_first_use():
    """render/rulebook/platypus.py: ReportLab's paragraph module compiles its web address pattern
    (read through `_uri_split_pairs` alone) and reportlab.lib.textsplit its CJK one (`rx`, read by
    `cjkwrap` alone) with re.compile as they are imported. Importing the rulebook (in a fresh
    process) leaves both uncompiled; once used they answer as ReportLab's own patterns do."""
    import subprocess
    import sys
    code = ("import re, reportlab\nimport generator.render.rulebook.book\n"
            "from reportlab.platypus import paragraph as p\nfrom reportlab.lib import textsplit as t\n"
            "from generator.render.rulebook.platypus import OnFirstUse\n"
            "lazy, cjk = p.uri_pat, t.rx\n"
            "print(all(type(x) is OnFirstUse and not x.compiled for x in (lazy, cjk)))\n"
            "urls = ['http://example.com/a/b', 'https://x.y.z:8080/p?q=1', 'www.example.com', 'C:\\\\dir\\\\f', 'no url']\n"
            "ours = [p._uri_split_pairs(u) for u in urls]\n"
            "text = 'ab \\u6f22\\u5b57 c'\nours.append(cjk.sub(r'\\1\\0 ', text))\n"
            "p.uri_pat, real_cjk = re.compile(lazy.pattern, lazy.flags), re.compile(cjk.pattern, cjk.flags)\n"
            "theirs = [p._uri_split_pairs(u) for u in urls] + [real_cjk.sub(r'\\1\\0 ', text)]\n"
            "print(lazy.compiled and cjk.compiled and ours == theirs and ours[0] is not None and ours[-1] != text)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.split() == ["True", "True"], done.stdout + done.stderr


def _pydantic_run(env_value: str | None, then: str = "") -> list:
    """In a fresh `pnp` process (generator.cli imported) with PYDANTIC_DISABLE_PLUGINS set to
    `env_value` (None: unset), a model validated once, then `then`: whether importlib.metadata
    loaded, the loader's type name and what `then` printed."""
    import subprocess
    import sys
    code = ("import sys, os\nimport generator.cli\nfrom pydantic import BaseModel\n"
            "class M(BaseModel):\n    x: int\nM(x=1)\n"
            "out = ['importlib.metadata' in sys.modules, type(sys.modules['pydantic.plugin._loader']).__name__]\n"
            f"{then}\nprint(repr(out))")
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYDANTIC_DISABLE_PLUGINS"}
    if env_value is not None:
        env["PYDANTIC_DISABLE_PLUGINS"] = env_value
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, check=True)
    return ast.literal_eval(done.stdout.strip().splitlines()[-1])


def test_pydantic_asks_our_stand_in_for_its_plugins():
    """cli/__init__.py stands in for pydantic's plugin loader while no plugin may load (docs/
    architecture.md, "Other projects' APIs"; pyproject caps pydantic to the versions tested): the
    loader imports importlib.metadata at its top, ~15 ms of every command. If this fails, a
    pydantic release asks for its plugins another way: fix cli/__init__.py before lifting the cap."""
    assert _pydantic_run(None) == [False, "_NoPluginLookup"]
    # a user's own setting that lets plugins load: pydantic's own loader, untouched
    assert _pydantic_run("") == [True, "module"]
    # plugins allowed after the start, and a name the stand-in does not answer: the real loader
    # answers both, and takes its place
    then = ("os.environ['PYDANTIC_DISABLE_PLUGINS'] = ''\nimport pydantic.plugin._loader as loader\n"
            "out += [loader.PYDANTIC_ENTRY_POINT_GROUP, list(loader.get_plugins()), "
            "type(sys.modules['pydantic.plugin._loader']).__name__]")
    assert _pydantic_run(None, then) == [False, "_NoPluginLookup", "pydantic", [], "module"]
