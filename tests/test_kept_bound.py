"""pnp's cache folder stays bounded (core/kept.py): past MAX_FILES files or MAX_BYTES bytes the
oldest files are forgotten, down to three quarters of both, and a process that goes on writing (a
long-lived `pnp serve` keeping each printed build's compressed streams) bounds it again after each
REBOUND_BYTES it writes, not only at its first write."""

from __future__ import annotations

import pytest

from generator.core import kept


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setenv("PNP_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("PNP_NO_CACHE", raising=False)
    monkeypatch.setattr(kept, "_written", {})
    monkeypatch.setattr(kept, "_checked", {})
    return tmp_path / "cache"


def _fill(n: int, size: int, start: int = 0) -> None:
    for i in range(start, start + n):
        kept.keep(f"k{i:05d}", b"test-fmt", bytes(size))


def _names(folder) -> set[str]:
    return {p.name for p in folder.iterdir() if not p.name.startswith(".tmp-")}


def test_past_the_files_bound_the_oldest_go(folder, monkeypatch):
    monkeypatch.setattr(kept, "MAX_FILES", 20)
    monkeypatch.setattr(kept, "REBOUND_BYTES", 1)  # bounded at every write
    _fill(25, 10)
    names = _names(folder)
    assert len(names) <= 20 and "k00024" in names and "k00000" not in names


def test_past_the_bytes_bound_the_oldest_go(folder, monkeypatch):
    monkeypatch.setattr(kept, "MAX_BYTES", 10_000)
    monkeypatch.setattr(kept, "REBOUND_BYTES", 1)
    _fill(30, 1_000)  # 30 kB of payloads in a folder of 10 kB
    names = _names(folder)
    assert sum((folder / n).stat().st_size for n in names) <= 10_000
    assert "k00029" in names and "k00000" not in names
    assert kept.load("k00029", b"test-fmt") == bytes(1_000)  # what was kept last is read back


def test_a_process_that_goes_on_writing_bounds_the_folder_again(folder, monkeypatch):
    # the first write bounds the folder; then each REBOUND_BYTES written bound it again, so a
    # server writing for hours keeps the folder within MAX_BYTES (bounding once per process did not)
    monkeypatch.setattr(kept, "MAX_BYTES", 20_000)
    monkeypatch.setattr(kept, "REBOUND_BYTES", 5_000)
    _fill(100, 1_000)  # 100 kB written by one process
    assert sum(p.stat().st_size for p in folder.iterdir()) <= 20_000 + 5_000 + 100 * 64


def test_the_rebound_check_fails_when_the_folder_is_bounded_once_per_process(folder, monkeypatch):
    # self-test: with the re-check taken away (bounded at the first write only, as before), the
    # test above sees the folder grow past its bound
    monkeypatch.setattr(kept, "MAX_BYTES", 20_000)
    monkeypatch.setattr(kept, "REBOUND_BYTES", 10**12)
    _fill(100, 1_000)
    assert sum(p.stat().st_size for p in folder.iterdir()) > 20_000 + 5_000 + 100 * 64


def test_the_bounds_are_the_documented_ones():
    assert (kept.MAX_FILES, kept.MAX_BYTES, kept.REBOUND_BYTES) == (4000, 256 << 20, 32 << 20)
