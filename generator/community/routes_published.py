"""A saved build's history (every version, restorable), publishing, the published builds
(browse, open, copy into one's own builds), the designer's moderation and card statistics."""

from __future__ import annotations

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, PlainTextResponse, RedirectResponse, Response
from markupsafe import Markup, escape

from generator.core.errors import InputError
from generator.core.limits import MAX_DESCRIPTION, MAX_POINTS, MAX_QUERY_CHARS, MAX_VERSION, NotANumber, whole_number
from generator.pack.query import All, Not, Term, parse_query
from generator.web.common import number_field, site_of
from generator.web.memo import digest
from generator.web.pages import page
from generator.web.state import document_from_yaml, to_yaml
from generator.web.view import build_view
from generator.pack.translations.own import words_of
from generator.web.words import gettext, page_language
from generator.community.common import cache_of, designer, pages_of, store_of
from generator.community.dbbuilds import owner_now, asker
from generator.community.middleware import CSRF_JS
from generator.community.publish import publish
from generator.community.social import clean_text, comments, likes_it, markdown_html, versions
from generator.community.stats import card_stats, stats_csv

router = APIRouter(include_in_schema=False)
PAGE = 50


@router.get("/community/csrf.js")
def csrf_js():
    return Response(CSRF_JS, media_type="text/javascript", headers={"Cache-Control": "max-age=3600"})


@router.get("/p/{pack_id}/builds/{stem}/history")
def history(request: Request, pack_id: str, stem: str):
    pack = site_of(request).pack(pack_id)
    site_of(request).builds.read(stem)  # 404 (or sign in) first
    versions = store_of(request).versions(owner_now(), stem)
    return page(request, "community_history.html", title=gettext("History of {stem}").format(stem=stem), pack=pack, stem=stem,
                versions=versions, published=store_of(request).published_from(owner_now(), stem))


def _version_text(request: Request, pack_id: str, stem: str, n: str) -> tuple[int, str]:
    """Version `n` of a saved build (its number, its text); 404 for a version that is not
    there, whatever `n` is (a word, `²`, a number past any column)."""
    site_of(request).pack(pack_id)
    try:
        number = whole_number(n, MAX_VERSION, 1)
        return number, store_of(request).version_text(owner_now(), stem, number)
    except (NotANumber, KeyError):
        raise HTTPException(404, f"no version `{n[:20]}` of that build (versions are numbered from 1; the "
                                 "history lists them)") from None


@router.get("/p/{pack_id}/builds/{stem}/versions/{n}.yaml")
def version_file(request: Request, pack_id: str, stem: str, n: str):
    number, text = _version_text(request, pack_id, stem, n)
    return PlainTextResponse(text, media_type="application/yaml",
                             headers={"Content-Disposition": f'attachment; filename="{stem}-v{number}.yaml"'})


@router.post("/p/{pack_id}/builds/{stem}/restore/{n}")
def restore(request: Request, pack_id: str, stem: str, n: str):
    """Version n becomes the newest version (the ones after it are kept too)."""
    _, text = _version_text(request, pack_id, stem, n)
    site_of(request).builds.write(stem, text)
    return RedirectResponse(f"/p/{pack_id}/builds/{stem}/history", status_code=303)


@router.post("/p/{pack_id}/builds/{stem}/publish")
def publish_build(request: Request, pack_id: str, stem: str, points_limit: str = Form("", max_length=12),
                  description: str = Form("", max_length=MAX_DESCRIPTION + 500)):
    """Publish a saved build (published before: its next version, at the same address)."""
    site = site_of(request)
    pack = site.pack(pack_id)
    text = site.builds.read(stem)
    limit = points_limit.strip()
    number = pack.spec.points_limits.get(limit) if limit else None
    if limit and number is None:
        try:
            number = whole_number(limit, MAX_POINTS)
        except NotANumber as exc:
            names = ", ".join(pack.spec.points_limits) or "none"
            raise HTTPException(422, f"the points limit `{limit[:20]}` is neither {exc.expected} nor a limit the "
                                     f"pack names ({names})") from None
    who = asker.get()
    said = clean_text(description, MAX_DESCRIPTION, "description") or None  # empty: keep the one it has
    public_id = publish(store_of(request), pack, text, owner_now(), who.name, number,
                        source=stem, description=said)
    return RedirectResponse(f"/p/{pack_id}/published/{public_id}", status_code=303)


def _kept(request: Request, key: tuple, name: str, context) -> HTMLResponse:
    """The page `name` drawn with `context()` (which may raise, e.g. a 404), kept by this
    worker (generator.web.memo: the least recently used go first past app.PAGES_BYTES) under `key` and
    the published builds' generation, read first: every change to what these pages show
    raises it in its own transaction (store.generation), so a kept page is never one from
    before a change, whichever worker made the change. `key` holds everything the page
    depends on (the route's parameters, what the asker may see); the account links and CSRF
    token are put in after (middleware.inject)."""
    site_of(request).pack(key[1])  # 404 for a pack not served, before anything is kept
    # the page's language too: the pack's texts and the builder's words are drawn in it (web/words.py)
    kept, at = pages_of(request), digest(store_of(request).generation(), page_language(), *key)
    html = kept.get(at)
    if html is None:
        html = request.app.state.jinja.get_template(name).render(site=site_of(request), **context()).encode()
        kept.put(at, html)
    return HTMLResponse(html)


@router.get("/p/{pack_id}/published")
def browse(request: Request, pack_id: str, side: str = Query("", max_length=80),
           max_points: str = Query("", max_length=9), character: str = Query("", max_length=120),
           card: str = Query("", max_length=120), sort: str = Query("newest", pattern="^(newest|liked|copied)$"),
           q: str = Query("", max_length=MAX_QUERY_CHARS), page_no: int = Query(1, ge=1, le=10_000, alias="page")):
    who = asker.get()
    designer_sees = who.role == "designer" and not who.anonymous
    def context() -> dict:
        pack = site_of(request).pack(pack_id)
        problems: list = []
        try:
            points = number_field(max_points, "max_points", MAX_POINTS)
        except InputError as exc:  # said beside the form, as a search that cannot be read is
            points, problems = None, list(exc.problems)
        try:
            held = ("held", ()) if problems else holding(pack, q)
        except InputError as exc:  # said beside the search box; nothing is listed
            held, problems = ("held", ()), exc.problems
        found = store_of(request).browse(pack_id, side or None, points, character or None, card or None, sort, PAGE,
                                         (page_no - 1) * PAGE, show_hidden=designer_sees, holding=held)
        char_label, chars = cache_of(request).get_or_make(("choices", pack_id, page_language()), lambda: _choices(pack))
        return dict(title=gettext("Published builds: {name}").format(name=pack.spec.name), pack=pack, found=found, problems=problems,
                    char_label=char_label, char_options=_grouped(chars, character),
                    q={"side": side, "max_points": max_points, "character": character, "card": card, "sort": sort,
                       "q": q},
                    page_no=page_no, more=len(found) == PAGE, designer=designer_sees)

    html = _kept(request, ("browse", pack_id, side, max_points, character, card, sort, q, page_no, designer_sees),
                 "community_published.html", context)
    if b'class="problems"' in html.body:
        html.status_code = 422
    return html


def holding(pack, text: str) -> tuple | None:
    """A card search as the published builds' filter reads it (Store.browse): the same query as
    the card browser's (generator.pack.query), each term asking whether a build holds a card it
    finds; None for an empty search. InputError for one that cannot be read."""
    query = parse_query(text, pack)
    if query.root is None:
        return None
    found: dict[int, tuple[str, ...]] = {}

    def tree(node) -> tuple:
        if isinstance(node, Term):
            if id(node) not in found:
                found[id(node)] = tuple(c.id for c in pack.cards.values() if node.matches(c, pack))
            return ("held", found[id(node)])
        if isinstance(node, Not):
            return ("not", tree(node.inner))
        return ("all" if isinstance(node, All) else "any", tuple(tree(p) for p in node.parts))

    return tree(query.root)


def _choices(pack) -> tuple[str, list[tuple[str, list[tuple[str, str]]]]]:
    """The list's filter choices of a pack, (id, name) escaped, by name: the cards each side's
    characters are made of, a group per side (its heroes, its boss pieces), with the filter's
    label in the pack's words ("Hero or Boss Piece")."""
    pairs = lambda cards: [(str(escape(c.id)), str(escape(c.name))) for c in cards]  # noqa: E731
    by_name = sorted(pack.cards.values(), key=lambda c: c.name)
    groups, words = [], []
    for side in pack.spec.sides.values():
        base = pack.spec.card_types[side.base.type].name if side.base.type in pack.spec.card_types else side.base.type
        words += [base] if base not in words else []
        groups.append((str(escape(f"{side.name}: {base}")),
                       pairs(c for c in by_name if c.type == side.base.type and c.set in side.sets)))
    return words_of(pack)(" or ").join(words), groups  # in the pack's language, as its names are


def _options(choices: list[tuple[str, str]], selected: str) -> Markup:
    """The <option>s of a filter (after its "any"), `selected` marked (choices are escaped already)."""
    chosen = str(escape(selected))
    return Markup("".join(f'<option value="{i}"{" selected" if i == chosen else ""}>{n}</option>'
                          for i, n in choices))


def _grouped(groups: list[tuple[str, list[tuple[str, str]]]], selected: str) -> Markup:
    """_options in an <optgroup> per side (labels escaped already); a side with none left out."""
    return Markup("".join(f'<optgroup label="{label}">{_options(choices, selected)}</optgroup>'
                          for label, choices in groups if choices))


def publication(request: Request, pack_id: str, public_id: str):
    """The publication asked for, as the asker may see it (a hidden one only by the designer); 404 otherwise."""
    p = store_of(request).publication(public_id[:40])
    who = asker.get()
    if p is None or p.pack != pack_id or (p.hidden and not (who.role == "designer" and not who.anonymous)):
        raise HTTPException(404, "no such published build")
    return p


@router.get("/p/{pack_id}/published/{public_id}.yaml")
def published_file(request: Request, pack_id: str, public_id: str):
    site_of(request).pack(pack_id)
    p = publication(request, pack_id, public_id)
    return PlainTextResponse(p.text, media_type="application/yaml")


@router.get("/p/{pack_id}/published/{public_id}")
def open_published(request: Request, pack_id: str, public_id: str):
    """A published build as players see it: the author, the description, each character with
    its cards as pictures and a list, points, verdict, statistics and draw odds (the share page's
    own view), its versions, likes and comments, and copy, share and print buttons."""
    who = asker.get()
    designer_sees, signed_in = who.role == "designer" and not who.anonymous, not who.anonymous

    def context() -> dict:
        pack = site_of(request).pack(pack_id)
        p = publication(request, pack_id, public_id)  # 404: nothing is kept
        store = store_of(request)
        # a version's text never changes: each worker reads and checks it once per language (its names, messages)
        doc, view = cache_of(request).get_or_make(("view", pack_id, p.public_id, p.version, page_language()),
                                                  lambda: _viewed(pack, p.text))
        mine = signed_in and who.owner == p.owner_key
        return dict(title=gettext("{name}: published build").format(name=p.name), pack=pack, p=p, doc=doc, view=view,
                    designer=designer_sees,
                    signed_in=signed_in, mine=mine, liked=signed_in and likes_it(store, p.id, who.owner),
                    description=markdown_html(p.description), versions=versions(store, p.id),
                    comments=[(c, markdown_html(c.body)) for c in comments(store, p.id, show_hidden=designer_sees)],
                    side=pack.spec.sides.get(p.side), target={"char": None, "piece": None}, readonly=True,
                    heading=False, blocked={}, stem=None, map_check=False, code=p.code)

    # what the page shows depends on who asks: the designer, the author, another player, nobody
    whose = who.owner if signed_in else None
    return _kept(request, ("open", pack_id, public_id[:40], designer_sees, whose), "community_publication.html",
                 context)


def _viewed(pack, text: str) -> tuple[dict, object]:
    doc = document_from_yaml(text, pack, "the published build")
    return doc, build_view(pack, doc)


@router.post("/p/{pack_id}/published/{public_id}/copy")
def copy_published(request: Request, pack_id: str, public_id: str):
    """A copy into the asker's own builds; counted as a copy unless the author makes it."""
    site = site_of(request)
    pack = site.pack(pack_id)
    p = publication(request, pack_id, public_id)
    doc = document_from_yaml(p.text, pack, "the published build")
    stem = site.builds.create(doc["name"], to_yaml(doc))
    if owner_now() != p.owner_key:
        store_of(request).copied(p.public_id)
    return RedirectResponse(f"/p/{pack_id}/edit?file={stem}", status_code=303)


@router.post("/p/{pack_id}/published/{public_id}/flags")
def flags(request: Request, pack_id: str, public_id: str, featured: str = Form(""), hidden: str = Form("")):
    designer(request)
    p = publication(request, pack_id, public_id)
    store_of(request).set_flags(p.public_id, featured=featured == "1", hidden=hidden == "1")
    return RedirectResponse(f"/p/{pack_id}/published/{p.public_id}", status_code=303)


@router.get("/p/{pack_id}/stats")
def stats_page(request: Request, pack_id: str):
    designer(request)
    pack = site_of(request).pack(pack_id)
    stats = card_stats(store_of(request), pack)
    top = max((r.builds for r in stats.cards), default=0) or 1
    return page(request, "community_stats.html", title=gettext("Card statistics: {name}").format(name=pack.spec.name), pack=pack, stats=stats,
                top=top)


@router.get("/p/{pack_id}/stats.csv")
def stats_file(request: Request, pack_id: str):
    designer(request)
    pack = site_of(request).pack(pack_id)
    return PlainTextResponse(stats_csv(card_stats(store_of(request), pack)), media_type="text/csv",
                             headers={"Content-Disposition": f'attachment; filename="{pack_id}-card-stats.csv"'})
