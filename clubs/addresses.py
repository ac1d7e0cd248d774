"""A club's address (``/clubs/<address>/``) made from its name, in letters a person can
type on any keyboard: Japanese read and written in romaji (cutlet, with the UniDic
dictionary of unidic-lite for the kanji's readings), Cyrillic transliterated (iuliia's
Wikipedia scheme, the one Russian readers meet most), accented Latin letters stripped
of their accents (Django's slugify). A name in none of these scripts gets a short code.

Pure: no database. ``clubs.selectors.free_address`` makes one unique on the site.
"""

from __future__ import annotations

import functools
import hashlib
import re

import iuliia
from django.utils.text import slugify

#: the longest address a club may have (Club.slug's max_length)
ADDRESS_LENGTH = 64
#: addresses the site's own pages under /clubs/ use
RESERVED = frozenset({"new"})

_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]")
_CYRILLIC = re.compile(r"[\u0400-\u04ff]")


@functools.cache
def _romaji() -> object:
    import cutlet  # loads MeCab and its dictionary: once, and only for a Japanese name

    return cutlet.Cutlet()


def address_from_name(name: str) -> str:
    """The address the name reads as, or a short code when nothing of it can be typed."""
    text = name
    if _JAPANESE.search(text):
        text = _romaji().romaji(text)  # type: ignore[attr-defined]
    if _CYRILLIC.search(text):
        text = iuliia.WIKIPEDIA.translate(text)
    address = _shorten(slugify(text).replace("_", "-").strip("-"))
    return address or short_code(name)


def _shorten(address: str, room: int = ADDRESS_LENGTH) -> str:
    """At most ``room`` characters, cut between words where it can be."""
    if len(address) <= room:
        return address
    cut = address[:room]
    return cut.rsplit("-", 1)[0] if "-" in cut else cut


def short_code(name: str) -> str:
    """An address for a name that has none: ``club-`` and six letters and digits, the
    same for the same name (so the address the form shows is the one saved)."""
    return "club-" + hashlib.sha256(name.strip().encode()).hexdigest()[:6]


def numbered(address: str, number: int) -> str:
    """The ``number``-th address of a name whose plain one is taken: ``tokyo-2``."""
    suffix = f"-{number}"
    return _shorten(address, ADDRESS_LENGTH - len(suffix)) + suffix
