"""Published sheets: a pack's `cards/NAME.url` names a CSV export on the web (how Google
Sheets and LibreOffice publish a sheet). `pnp fetch` (or `pnp build --fetch`) downloads it,
with a timeout and a size limit, into the pack's cache `.cache/sheets/NAME.csv`; loading a
pack reads only that cached copy, so builds never touch the network unless asked to.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from generator.core.errors import InputError, Location, Problem
from generator.pack.sheets import SHEET_SUFFIXES, URL_SUFFIX
from generator.core.files import atomic_output

CACHE = Path(".cache") / "sheets"
MAX_BYTES = 16 * 1024 * 1024
TIMEOUT_S = 20.0  # for the whole download, not only each read
CHUNK = 64 * 1024


def _display(path: Path) -> str:
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _is_temp(path: Path) -> bool:
    # Excel's owner file `~$cards.xlsx` and LibreOffice's `.~lock.cards.ods#` sit beside open files
    # (and our own atomic writes' hidden temporary files)
    return path.name.startswith(("~$", "."))


def sheet_files(root: Path) -> list[Path]:
    """The spreadsheet and .url files of a pack's cards/ folder, sorted."""
    folder = Path(root) / "cards"
    return sorted(p for suffix in (*SHEET_SUFFIXES, URL_SUFFIX) for p in folder.glob(f"*{suffix}")
                  if not _is_temp(p))


def read_url_file(path: Path) -> str:
    file = _display(path)
    try:
        lines = [ln.strip() for ln in path.read_text(encoding="utf-8-sig").splitlines()]
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError([Problem("spreadsheet.url", f"{file} cannot be read: {exc}", Location(file))]) from None
    urls = [ln for ln in lines if ln and not ln.startswith("#")]
    if len(urls) != 1 or not urls[0].lower().startswith(("https://", "http://")):
        raise InputError([Problem("spreadsheet.url", f"{file} must hold one http(s) address", Location(file),
                                  found=urls[0][:80] if urls else "no address",
                                  expected="the address of a published CSV, e.g. https://.../pub?output=csv",
                                  fix="put the sheet's published CSV address on a line of its own")])
    return urls[0]


def cache_path(root: Path, url_file: Path) -> Path:
    return Path(root) / CACHE / (url_file.stem + ".csv")


def sheet_sources(root: Path, problems: list[Problem]) -> list[tuple[Path, str]]:
    """(file to read, name shown in messages) for each spreadsheet of the pack; a .url whose
    sheet was never fetched is a problem."""
    out: list[tuple[Path, str]] = []
    for path in sheet_files(root):
        if path.suffix != URL_SUFFIX:
            out.append((path, _display(path)))
            continue
        cached = cache_path(root, path)
        if cached.is_file():
            out.append((cached, _display(cached)))
        else:
            problems.append(Problem("spreadsheet.not-fetched", f"the published sheet of {_display(path)} has not "
                                    "been fetched yet", Location(_display(path)), expected=f"a copy in {CACHE}/",
                                    fix="run `pnp fetch PACK` (or `pnp build --fetch`), which downloads it once"))
    return out


def fetch_pack(root: Path, timeout: float = TIMEOUT_S, limit: int = MAX_BYTES) -> list[str]:
    """Download every published sheet of a pack into its cache; lines to print."""

    lines, problems = [], []
    for path in sheet_files(root):
        if path.suffix != URL_SUFFIX:
            continue
        try:
            url = read_url_file(path)
            data = download(url, _display(path), timeout, limit)
        except InputError as exc:
            problems.extend(exc.problems)
            continue
        target = cache_path(root, path)
        target.parent.mkdir(parents=True, exist_ok=True)
        with atomic_output(target, suffix=".csv") as tmp:
            Path(tmp).write_bytes(data)
        lines.append(f"fetched {url} ({len(data):,} bytes) into {_display(target)}")
    if problems:
        raise InputError(problems)
    if not lines:
        lines.append(f"{_display(Path(root))} has no published sheets (cards/*.url)")
    return lines


def download(url: str, file: str, timeout: float, limit: int) -> bytes:
    """GET `url`; InputError on a failure, a slow server (the whole transfer must finish within
    `timeout` seconds) or an answer over `limit` bytes (reading stops there)."""
    # deferred: urllib.request loads ssl and http (~15 ms), which only a fetch uses, while every
    # pack load passes through this module
    import urllib.error
    # deferred: urllib loads only when a published sheet is downloaded
    import urllib.request

    where = Location(file)
    request = urllib.request.Request(url, headers={"User-Agent": "pnp-generator", "Accept": "text/csv, */*"})
    start = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310 (http(s) only, checked)
            declared = response.headers.get("Content-Length")
            if declared and declared.isascii() and declared.isdigit() and int(declared) > limit:
                raise _too_big(url, where, limit, f"{int(declared):,} bytes announced")
            chunks, size = [], 0
            while True:
                if time.monotonic() - start > timeout:
                    raise TimeoutError
                chunk = response.read(CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > limit:
                    raise _too_big(url, where, limit, f"more than {limit:,} bytes")
                chunks.append(chunk)
    except urllib.error.HTTPError as exc:
        raise InputError([Problem("spreadsheet.fetch", f"{url} answered {exc.code} {exc.reason}", where,
                                  found=f"HTTP {exc.code}", expected="the published CSV (HTTP 200)",
                                  fix="check the address in the .url file, and that the sheet is still published")]) from None
    except (TimeoutError, OSError) as exc:  # URLError, a refused connection, a timeout
        reason = getattr(exc, "reason", None) or exc.__class__.__name__
        if isinstance(exc, TimeoutError) or "timed out" in str(reason):
            reason = f"no complete answer within {timeout:g} s"
        raise InputError([Problem("spreadsheet.fetch", f"{url} could not be fetched: {reason}", where,
                                  expected="the published CSV",
                                  fix="check the network and the address; the previous copy (if any) is kept")]) from None
    return b"".join(chunks)


def _too_big(url: str, where: Location, limit: int, found: str) -> InputError:
    return InputError([Problem("spreadsheet.fetch", f"{url} sends {found}; the limit is {limit:,} bytes", where,
                               found=found, expected=f"at most {limit:,} bytes",
                               fix="publish only the cards sheet, as CSV")])
