"""Reading record files: encodings, BOM, CRLF, and finding files under folders."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gops_records.core.errors import DecodeError, GopsError
from gops_records.core.sources import SourceError, decode, find_files, read_text
from gops_records.games.gops.reading import parse


def test_data_files_are_as_awkward_as_they_claim(data_dir):
    assert (data_dir / "bom.gops").read_bytes().startswith(b"\xef\xbb\xbf")
    latin = (data_dir / "latin1.gops").read_bytes()
    assert "José".encode("latin-1") in latin
    with pytest.raises(UnicodeDecodeError):
        latin.decode("utf-8")
    assert not (data_dir / "truncated.gops").read_bytes().endswith(b"\n")


def test_utf8_bom_is_dropped(data_dir):
    text = read_text(data_dir / "bom.gops")
    assert text.startswith('[Event "Café ♦ night"]')
    (game,) = parse(text)
    assert game.tags["A"] == "Zoë" and game.problems == ()
    assert game.tag_spans["Event"].column == 1


@pytest.mark.parametrize("encoding", ["utf-8", "UTF8", "utf_8", "utf-8-sig"])
def test_bom_dropped_for_every_spelling_of_utf8(encoding):
    assert decode(b"\xef\xbb\xbf[A \"x\"]", encoding) == '[A "x"]'


def test_crlf_is_kept_as_written():
    assert decode(b"[A \"x\"]\r\n*\r\n") == '[A "x"]\r\n*\r\n'


def test_latin1_needs_the_encoding(data_dir):
    path = data_dir / "latin1.gops"
    with pytest.raises(DecodeError) as info:
        read_text(path)
    message = str(info.value)
    assert message.startswith(f"{path}: line 2: bytes are not valid utf-8")
    assert "--encoding latin-1" in message
    assert info.value.code == "encoding" and isinstance(info.value, GopsError)
    text = read_text(path, "latin-1")
    (game,) = parse(text)
    assert game.players == ["José", "Müller"]
    assert game.tags["Event"] == "Frühjahrsturnier"


def test_decode_error_names_the_line():
    with pytest.raises(DecodeError, match=r"^x\.gops: line 3: bytes are not valid utf-8"):
        decode(b"one\ntwo\nthr\xe9e\n", name="x.gops")


def test_unknown_encoding():
    with pytest.raises(DecodeError, match="unknown encoding 'klingon'"):
        decode(b"*", "klingon")


def test_missing_file():
    with pytest.raises(SourceError) as info:
        read_text("no/such/file.gops")
    assert info.value.code == "source"
    assert str(info.value).startswith("no/such/file.gops: cannot read")


def _tree(root: Path) -> None:
    for name in ["b.gops", "a.GOPS", "notes.txt", "sub/c.gops", "sub/deeper/d.gops",
                 "sub/e.pgn"]:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("*\n")


def test_find_files_searches_folders_recursively(tmp_path):
    _tree(tmp_path)
    found = [p.relative_to(tmp_path).as_posix() for p in find_files([tmp_path])]
    assert found == ["a.GOPS", "b.gops", "sub/c.gops", "sub/deeper/d.gops"]


def test_find_files_keeps_named_files_whatever_their_suffix(tmp_path):
    _tree(tmp_path)
    found = list(find_files([tmp_path / "notes.txt", tmp_path / "sub"]))
    assert found == [tmp_path / "notes.txt", tmp_path / "sub/c.gops",
                     tmp_path / "sub/deeper/d.gops"]


def test_find_files_missing_path(tmp_path):
    with pytest.raises(SourceError, match="no such file or folder"):
        list(find_files([tmp_path / "missing.gops"]))


def test_empty_folder_has_no_files(tmp_path):
    assert list(find_files([tmp_path])) == []


def test_find_files_does_not_follow_a_link_to_a_folder(tmp_path):
    _tree(tmp_path / "real")
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.gops").write_text("*\n")
    (tmp_path / "in" / "link").symlink_to(tmp_path / "real", target_is_directory=True)
    assert list(find_files([tmp_path / "in"])) == [tmp_path / "in" / "x.gops"]


class _Unsearchable:
    """A folder entry that cannot be looked at (its folder is readable, not searchable)."""

    def __init__(self, entry) -> None:
        self.name, self.path = entry.name, entry.path

    def is_dir(self) -> bool:
        raise PermissionError(13, "Permission denied", self.path)

    is_file = is_symlink = is_dir


def test_an_entry_that_cannot_be_looked_at_is_named_not_skipped(tmp_path, monkeypatch):
    _tree(tmp_path)
    real = os.scandir

    class Listing:
        def __init__(self, path) -> None:
            self.inner = real(path)

        def __enter__(self):
            return (e if e.name != "sub" else _Unsearchable(e) for e in self.inner)

        def __exit__(self, *exc) -> None:
            self.inner.close()

    monkeypatch.setattr(os, "scandir", Listing)
    problems: list[SourceError] = []
    found = [p.name for p in find_files([tmp_path], unreadable=problems)]
    assert found == ["a.GOPS", "b.gops"]
    assert [str(p) for p in problems] == [f"{tmp_path / 'sub'}: cannot read: Permission denied"]
    with pytest.raises(SourceError, match="sub: cannot read: Permission denied"):
        list(find_files([tmp_path]))
