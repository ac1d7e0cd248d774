"""A player handle as one URL path segment.

Handles are free text from logs, so one may hold a "/" (``<script>alert(1)</script>``,
``Ann/Bob``), which the ``str`` converter cannot carry: every page linking to such a
player failed with NoReverseMatch (a 500), and ``%2F`` does not help, because the
server decodes it to "/" before Django routes. So "/" is written as ``~s`` and "~" as
``~~`` in the URL; every other handle's URL is unchanged.
"""

from __future__ import annotations

import re

from django.urls import register_converter

_ESCAPED = re.compile(r"~(.)")


class HandleConverter:
    regex = r"(?:[^/~]|~[~s])+"

    def to_python(self, value: str) -> str:
        return _ESCAPED.sub(lambda m: "/" if m.group(1) == "s" else "~", value)

    def to_url(self, value: str) -> str:
        return value.replace("~", "~~").replace("/", "~s")


# Registered on import, like config.converters: every URL module using <handle:...>
# imports this one.
register_converter(HandleConverter, "handle")
