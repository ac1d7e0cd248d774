"""Reading and writing bundles of logs: JSON-lines files and zip archives.

A bulk import arrives as one file holding many logs. Reading it must be bounded
whatever the file claims: a zip's headers can lie about sizes, and a few
kilobytes of deflated zeros can expand to gigabytes (a zip bomb). So every
entry is read in chunks with its real byte count checked against the per-log
limit, the whole archive against a total budget, and the number of entries is
capped before anything is read.

One entry that is too large is that entry's problem (it becomes a rejected
upload); an archive that breaks the total limits is refused as a whole, before
any log is stored.
"""

from __future__ import annotations

import io
import json
import struct
import zipfile
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from django.utils.translation import gettext_noop

from config.sentences import Sentence

#: bytes read from a zip member at a time
_CHUNK = 64 * 1024


#: The name a JSON-lines bundle gives each of its logs (``Upload.name``, stored as is; the
#: pages say it in the reader's language: ``Upload.name_text``).
LINE_NAME = "line {number}"


class BundleError(Exception):
    """The bundle as a whole cannot be read (not a zip, too many entries, too big).

    ``sentence`` is why, kept as what to say (a site msgid and its values), so an import
    that failed is explained to each reader in their language; ``str()`` is it in English."""

    def __init__(self, msgid: str, **params: object):
        self.sentence = Sentence.site(msgid, **params)
        super().__init__(self.sentence.english())


@dataclass(frozen=True)
class BundleEntry:
    """One log of a bundle: where it came from, and its bytes unless it was too large."""

    name: str
    payload: bytes | None
    #: the entry's size in bytes as far as it was read (over the limit: limit + 1)
    size: int

    @property
    def too_large(self) -> bool:
        return self.payload is None


@dataclass(frozen=True)
class BundleLimits:
    max_log_bytes: int
    max_entries: int
    max_total_bytes: int


def is_zip(data: bytes) -> bool:
    return data[:4] in (b"PK\x03\x04", b"PK\x05\x06")


def read_bundle(data: bytes, limits: BundleLimits) -> list[BundleEntry]:
    """Every log in ``data`` (a zip archive or JSON lines), in order.

    Reads everything up front, so a bundle that breaks a total limit is refused
    before any of its logs is stored.
    """
    if is_zip(data):
        entries = list(_read_zip(data, limits))
    elif _is_one_document(data):
        if len(data) > limits.max_log_bytes:
            entries = [BundleEntry("log", None, len(data))]
        else:
            entries = [BundleEntry("log", data, len(data))]
    else:
        entries = list(_read_json_lines(data, limits))
    if not entries:
        raise BundleError(gettext_noop("the file holds no logs"))
    return entries


def _is_one_document(data: bytes) -> bool:
    """A single (perhaps pretty-printed) JSON object rather than JSON lines."""
    if not data.lstrip().startswith(b"{") or data.count(b"\n") <= 1:
        return False
    try:
        return isinstance(json.loads(data), dict)
    except (ValueError, RecursionError):  # a line nested too deep is refused on its own
        return False


def _read_json_lines(data: bytes, limits: BundleLimits) -> Iterator[BundleEntry]:
    count = 0
    for number, line in enumerate(data.splitlines(), start=1):
        if not line.strip():
            continue
        count += 1
        if count > limits.max_entries:
            raise BundleError(
                gettext_noop("the file holds more than %(count)s logs"), count=limits.max_entries
            )
        name = LINE_NAME.format(number=number)
        if len(line) > limits.max_log_bytes:
            yield BundleEntry(name, None, len(line))
        else:
            yield BundleEntry(name, line, len(line))


#: Why a zip member is not read as a log, by the code an import keeps
#: (``Import.skipped``); the pages and the API say it in the reader's language.
SKIP_REASONS = {
    "folder": gettext_noop("a folder, not a file"),
    "macos": gettext_noop("what macOS adds to an archive it makes (__MACOSX/), not a log"),
    "hidden": gettext_noop("a hidden file (its name starts with a dot), not a log"),
}


def _skip_reason(info: zipfile.ZipInfo) -> str | None:
    """Why ``info`` is skipped (a code of SKIP_REASONS), or None when it is read: folders
    and the droppings of archivers (``__MACOSX/``, ``.DS_Store``, ``._name``)."""
    if info.is_dir():
        return "folder"
    parts = info.filename.split("/")
    if parts[0] == "__MACOSX":
        return "macos"
    if parts[-1].startswith("."):
        return "hidden"
    return None


def _wanted(info: zipfile.ZipInfo) -> bool:
    return _skip_reason(info) is None


@dataclass(frozen=True)
class SkippedMember:
    """A member of a zip archive that is not read as a log, and why (SKIP_REASONS)."""

    name: str
    reason: str


def skipped_members(data: bytes) -> list[SkippedMember]:
    """Every member of the zip archive ``data`` that is not read as a log, in name order;
    none for JSON lines. Call it on a bundle :func:`read_bundle` has read (so its
    directory is readable and within the limits)."""
    if not is_zip(data):
        return []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        skipped = [
            SkippedMember(info.filename, reason)
            for info in archive.infolist()
            if (reason := _skip_reason(info)) is not None
        ]
    return sorted(skipped, key=lambda member: member.name)


class BundleTooLarge(BundleError):
    """The bundle breaks a size or count limit (rather than being unreadable)."""


def check_bundle(data: bytes, limits: BundleLimits) -> None:
    """Refuse a bundle whose own directory already breaks the limits, without inflating
    anything: BundleTooLarge (too many files, declares too many bytes) or BundleError
    (not a readable zip). What the directory does not tell (real sizes, since headers
    lie) is checked while the import reads it (:func:`read_bundle`)."""
    if is_zip(data):
        _open_zip(data, limits)


def _zip_entry_count(data: bytes, stop_after: int) -> int:
    """How many entries the central directory holds, counted up to ``stop_after``.

    ``zipfile.ZipFile`` builds an object for every entry before anyone can look at the
    count: a 64 MB archive of empty members is ~800 000 of them, over a gigabyte of
    memory. The directory's fixed-size records are walked here instead, in O(1) memory.
    A directory this walk cannot follow is left to zipfile, which refuses it.
    """
    end = data.rfind(b"PK\x05\x06", max(0, len(data) - 22 - 65535))
    if end < 0 or end + 22 > len(data):
        return 0
    _disk, _cd_disk, _here, entries, cd_size, _offset = struct.unpack_from("<HHHHII", data, end + 4)
    cd_end = end
    if entries == 0xFFFF or cd_size == 0xFFFFFFFF:  # zip64: sizes in the zip64 end record
        locator = end - 20
        if locator < 0 or data[locator : locator + 4] != b"PK\x06\x07":
            return 0
        (record,) = struct.unpack_from("<Q", data, locator + 8)
        if record + 56 > len(data) or data[record : record + 4] != b"PK\x06\x06":
            return 0
        (cd_size,) = struct.unpack_from("<Q", data, record + 40)
        cd_end = record
    position, count = max(0, cd_end - cd_size), 0
    while position + 46 <= cd_end and data[position : position + 4] == b"PK\x01\x02":
        count += 1
        if count > stop_after:
            break
        name, extra, comment = struct.unpack_from("<HHH", data, position + 28)
        position += 46 + name + extra + comment
    return count


def _open_zip(data: bytes, limits: BundleLimits) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo]]:
    """The archive and its wanted members, once the directory is within the limits."""
    if _zip_entry_count(data, limits.max_entries) > limits.max_entries:
        raise BundleTooLarge(
            gettext_noop("the archive holds more than %(count)s files"), count=limits.max_entries
        )
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except (zipfile.BadZipFile, ValueError) as exc:
        raise BundleError(
            gettext_noop("the file is not a readable zip archive (%(reason)s)"), reason=str(exc)
        ) from None
    members = [info for info in archive.infolist() if _wanted(info)]
    if len(members) > limits.max_entries:
        raise BundleTooLarge(
            gettext_noop("the archive holds more than %(count)s files"), count=limits.max_entries
        )
    # The declared sizes are checked first (cheap), the real ones while reading (headers lie).
    declared = sum(info.file_size for info in members)
    if declared > limits.max_total_bytes:
        raise BundleTooLarge(
            gettext_noop(
                "the archive would expand to %(size)s bytes, more than the %(limit)s allowed"
            ),
            size=declared,
            limit=limits.max_total_bytes,
        )
    return archive, members


def _read_zip(data: bytes, limits: BundleLimits) -> Iterator[BundleEntry]:
    archive, members = _open_zip(data, limits)
    budget = limits.max_total_bytes
    for info in sorted(members, key=lambda i: i.filename):
        if info.flag_bits & 0x1:
            raise BundleError(
                gettext_noop("%(name)s: encrypted archives are not supported"), name=info.filename
            )
        payload, read = _read_member(archive, info, min(limits.max_log_bytes, budget))
        # Bytes read count against the budget even when the entry is refused, so an
        # archive of many oversized members cannot make us inflate without end.
        budget -= read
        if payload is not None:
            yield BundleEntry(info.filename, payload, read)
        elif budget < 0:
            raise BundleError(
                gettext_noop("the archive expands to more than the %(limit)s bytes allowed"),
                limit=limits.max_total_bytes,
            )
        else:
            yield BundleEntry(info.filename, None, read)


def _read_member(
    archive: zipfile.ZipFile, info: zipfile.ZipInfo, limit: int
) -> tuple[bytes | None, int]:
    """``(bytes, count)``, or ``(None, count)`` as soon as more than ``limit`` came out."""
    out = bytearray()
    try:
        with archive.open(info) as member:
            while chunk := member.read(_CHUNK):
                out += chunk
                if len(out) > limit:
                    return None, len(out)
    except (zipfile.BadZipFile, NotImplementedError, OSError, EOFError) as exc:
        raise BundleError(
            gettext_noop("%(name)s: cannot be read (%(reason)s)"),
            name=info.filename,
            reason=str(exc),
        ) from None
    return bytes(out), len(out)


def write_zip(named_texts: Iterable[tuple[str, str]]) -> bytes:
    """A deflated zip archive with one file per ``(name, text)``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        for name, text in named_texts:
            archive.writestr(name, text)
    return buffer.getvalue()


def write_json_lines(texts: Iterable[str]) -> bytes:
    """One compact JSON document per line."""
    return b"".join(text.encode() + b"\n" for text in texts)
