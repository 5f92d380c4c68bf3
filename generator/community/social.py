"""What players do with a published build besides copying it: describe it (the author), like it
(one like per account, claimed by the likes table's primary key), comment on it (Markdown, shown
sanitised; the designer may hide a comment), and read its versions. Every change raises the
published builds' generation in its own transaction, as a publish does (store.generation), so
no worker shows a page from before it.

Markdown is rendered by markdown-it-py with raw HTML off, images off and links limited to
http(s) and mailto (its own check drops `javascript:` and the like); every link gets
rel="nofollow ugc noopener". What a player types never reaches the page as HTML.
"""

from __future__ import annotations

import re
from datetime import timedelta
from functools import lru_cache

from markdown_it import MarkdownIt
from markupsafe import Markup
from sqlalchemy import delete, func, select, update
from sqlalchemy.exc import IntegrityError

from generator.core.errors import InputError, Location, Problem
from generator.core.limits import MAX_COMMENT, MAX_DESCRIPTION
from generator.community.models import Comment, Like, Publication, PublicationVersion, now
from generator.community.store import GENERATION_UP, Store

COMMENTS_PER_MINUTE = 5  # one account's comments, on any build: more is refused (429)
SHOWN_COMMENTS = 200  # a page shows the newest 200


def _refused(code: str, message: str, status: int, fix: str | None = None) -> InputError:
    exc = InputError([Problem(code, message, Location("the comment"), fix=fix)])
    exc.status = status
    return exc


# ---- Markdown, sanitised ---------------------------------------------------------------------------


@lru_cache(maxsize=1)
def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.disable(["image", "html_block", "html_inline"])
    md.validateLink = _safe_link  # type: ignore[method-assign]
    return md


def _safe_link(url: str) -> bool:
    """Links to the web, mail and this site only: not `javascript:`, `data:` or `//elsewhere`."""
    head = url.strip().lower()
    return head.startswith(("http://", "https://", "mailto:", "#", "/")) and not head.startswith("//")


def markdown_html(text: str) -> Markup:
    """A player's Markdown as safe HTML: no raw HTML, no images, links to the web only, each
    marked as the player's (rel nofollow ugc) and opening nothing of ours to the other page."""
    html = _markdown().render(text or "")
    html = _HEADING.sub(r"<\1h3>", html)  # under the page's own h2: a player's heading is never a page title
    return Markup(html.replace("<a href=", '<a rel="nofollow ugc noopener" href='))


_HEADING = re.compile(r"<(/?)h[1-6]>")


# ---- descriptions and versions ---------------------------------------------------------------------


def clean_text(text: str, most: int, what: str) -> str:
    text = (text or "").replace("\r\n", "\n").strip()
    if len(text) > most:
        raise _refused(f"{what}.size", f"the {what} is {len(text):,} characters long", 413,
                       f"keep it to {most:,} characters")
    return text


def set_description(store: Store, public_id: str, owner: int, text: str) -> bool:
    """The author's description of their published build (False: not theirs, or no such build)."""
    text = clean_text(text, MAX_DESCRIPTION, "description")
    with store.session() as s:
        done = s.execute(update(Publication).where(Publication.public_id == public_id, Publication.owner_key == owner)
                         .values(description=text)).rowcount
        if done:
            s.execute(GENERATION_UP)
        return bool(done)


def versions(store: Store, publication_id: int) -> list:
    """Every version of a publication, newest first: rows of (n, name, points, points_limit,
    created_at, code)."""
    with store.reader.connect() as conn:
        return list(conn.execute(select(PublicationVersion.n, PublicationVersion.name, PublicationVersion.points,
                                        PublicationVersion.points_limit, PublicationVersion.created_at,
                                        PublicationVersion.code)
                                 .where(PublicationVersion.publication_id == publication_id)
                                 .order_by(PublicationVersion.n.desc()).limit(500)))


def version_text(store: Store, publication_id: int, n: int) -> tuple[str, str] | None:
    """(text, code) of version n, or None."""
    with store.reader.connect() as conn:
        row = conn.execute(select(PublicationVersion.text, PublicationVersion.code).where(
            PublicationVersion.publication_id == publication_id, PublicationVersion.n == n)).first()
    return (row.text, row.code) if row else None


# ---- likes -----------------------------------------------------------------------------------------


def like(store: Store, publication_id: int, user_id: int) -> bool:
    """Claim one like (True); False when this account likes it already (the primary key says
    so, however many requests race: one insert wins, the count moves with it)."""
    try:
        with store.session() as s:
            s.add(Like(publication_id=publication_id, user_id=user_id, created_at=now()))
            s.flush()
            s.execute(update(Publication).where(Publication.id == publication_id)
                      .values(likes=Publication.likes + 1))
            s.execute(GENERATION_UP)
        return True
    except IntegrityError:
        return False


def unlike(store: Store, publication_id: int, user_id: int) -> bool:
    with store.session() as s:
        gone = s.execute(delete(Like).where(Like.publication_id == publication_id, Like.user_id == user_id)).rowcount
        if gone:
            s.execute(update(Publication).where(Publication.id == publication_id)
                      .values(likes=Publication.likes - 1))
            s.execute(GENERATION_UP)
        return bool(gone)


def likes_it(store: Store, publication_id: int, user_id: int) -> bool:
    with store.reader.connect() as conn:
        return conn.execute(select(Like.user_id).where(Like.publication_id == publication_id,
                                                       Like.user_id == user_id)).first() is not None


# ---- comments --------------------------------------------------------------------------------------


def add_comment(store: Store, publication_id: int, user_id: int, author: str, body: str) -> int:
    body = clean_text(body, MAX_COMMENT, "comment")
    if not body:
        raise _refused("comment.empty", "the comment is empty", 422, "write something first")
    with store.session() as s:
        recent = s.scalar(select(func.count()).select_from(Comment).where(
            Comment.user_id == user_id, Comment.created_at >= now() - timedelta(minutes=1))) or 0
        if recent >= COMMENTS_PER_MINUTE:
            raise _refused("comment.busy", f"{COMMENTS_PER_MINUTE} comments a minute at most", 429,
                           "wait a minute, then send it again")
        c = Comment(publication_id=publication_id, user_id=user_id, author=author[:40], body=body, hidden=False,
                    created_at=now())
        s.add(c)
        s.flush()
        s.execute(GENERATION_UP)
        return c.id


def comments(store: Store, publication_id: int, show_hidden: bool = False) -> list:
    """The newest SHOWN_COMMENTS comments, oldest first (rows: id, author, body, hidden, created_at)."""
    q = select(Comment.id, Comment.author, Comment.body, Comment.hidden, Comment.created_at).where(
        Comment.publication_id == publication_id)
    if not show_hidden:
        q = q.where(Comment.hidden.is_(False))
    with store.reader.connect() as conn:
        rows = list(conn.execute(q.order_by(Comment.id.desc()).limit(SHOWN_COMMENTS)))
    return rows[::-1]


def set_comment_hidden(store: Store, publication_id: int, comment_id: int, hidden: bool) -> bool:
    with store.session() as s:
        done = s.execute(update(Comment).where(Comment.id == comment_id, Comment.publication_id == publication_id)
                         .values(hidden=hidden)).rowcount
        if done:
            s.execute(GENERATION_UP)
        return bool(done)
