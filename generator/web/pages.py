"""Pages: the Jinja environment of the web templates and the responses made with it
(pages, and problems shown as a page, an editor fragment or the API's JSON document)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse
from jinja2 import Environment, FileSystemLoader, select_autoescape
from markupsafe import Markup, escape

from generator.core.errors import Problem
from generator.core.limits import MAX_POINTS
from generator.core.report import reports_document
from generator.web.fixes import words
from generator.web.fragments import Fragments
from generator.web.rulebook import card_terms, linked_keywords
from generator.web.words import gettext, js_words, pgettext, words_language

HERE = Path(__file__).parent


def templates() -> Environment:
    env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True),
                      trim_blocks=True, lstrip_blocks=True,
                      auto_reload=False)  # package files, read once per worker: no stat of each template per page
    env.filters["docjson"] = doc_json
    env.filters["rules"] = rules_html
    env.filters["words"] = words
    env.filters["keywords"] = linked_keywords
    env.filters["terms"] = card_terms
    env.globals.update(_=gettext, gettext=gettext, pgettext=pgettext, js_words=js_words, words_language=words_language)  # web/words.py
    env.globals["MAX_POINTS"] = MAX_POINTS  # the points box's bound, as the page document takes it
    env.globals["kept"] = Fragments(env)  # the editor's rows and charts, drawn once per worker (web/fragments.py)
    env.policies["json.dumps_function"] = _dumps  # `tojson`: the same text, without a new encoder per call
    return env


_SORTED = json.JSONEncoder(sort_keys=True)  # json.dumps(value, sort_keys=True), Jinja's `tojson` default


def _dumps(value, **kwargs) -> str:
    """json.dumps for Jinja's `tojson`: the editor writes one per button (a deck of 30 cards, 60
    of them), and json.dumps with any argument builds a new encoder each time."""
    return _SORTED.encode(value) if kwargs == {"sort_keys": True} else json.dumps(value, **kwargs)


def doc_json(value) -> Markup:
    """JSON for a <script> block, keys in their order (a deck stays in the order it was built);
    `<`, `>` and `&` escaped so no text in a build can close the script element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return Markup(text.replace("&", "\\u0026").replace("<", "\\u003c").replace(">", "\\u003e"))


def rules_html(text: str) -> Markup:
    """Card text for a page: `**bold**`, `*italic*` and inline icons (`:health:`) as words,
    the markup the card layouts understand, escaped first."""
    out = str(escape(text or ""))
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"(?<![*\w])\*(?!\s)(.+?)(?<!\s)\*(?![*\w])", r"<em>\1</em>", out)
    out = re.sub(r":([a-z0-9][a-z0-9-]*):", lambda m: f'<span class="icon">{m.group(1).replace("-", " ")}</span>', out)
    return Markup(out)


def page(request: Request, name: str, status: int = 200, **context) -> HTMLResponse:
    site = request.app.state.site
    html = request.app.state.jinja.get_template(name).render(request=request, site=site, **context)
    return HTMLResponse(html, status_code=status)


def wants_json(request: Request) -> bool:
    return request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", "") \
        or request.headers.get("x-pnp-fragment") == "1"


def problems_response(request: Request, problems: list[Problem], status: int = 422):
    if request.url.path.startswith("/api/") or "application/json" in request.headers.get("accept", ""):
        return JSONResponse(reports_document([], problems), status_code=status)
    if request.headers.get("x-pnp-fragment") == "1":  # a change made in the editor: the page shows it in place
        html = request.app.state.jinja.get_template("_problems.html").render(problems=problems)
        return HTMLResponse(html, status_code=status)
    return page(request, "error.html", status=status, problems=problems, title=gettext("That did not work"))
