"""Which fonts drew a page's text, and whether they have its characters: a check that
holds whatever fonts the machine has (Noto Sans CJK, IPAGothic, DejaVu, ...).

Chromium's DevTools protocol says which fonts drew the text of a node and how many
glyphs each drew (``CSS.getPlatformFontsForNode``); fontconfig says which characters a
font has. A character that no font used for its text has was drawn as a box (the
font's ``.notdef``, "tofu"), whichever font's name that was.
"""

from __future__ import annotations

import os
import re
import subprocess
from typing import Any

#: The characters of each language's own script on a page: kana, kanji and full-width
#: punctuation; Cyrillic.
SCRIPTS = {
    "ja": re.compile(r"[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uff00-\uffef]"),
    "ru": re.compile(r"[\u0400-\u04ff]"),
}

# The text of the matching elements that is theirs (not their children's, which the
# protocol counts on their own nodes), for the elements that are drawn.
_OWN_TEXT = """(selector) => [...document.querySelectorAll(selector)]
    .filter(element => element.checkVisibility())
    .flatMap(element => [...element.childNodes].filter(node => node.nodeType === Node.TEXT_NODE))
    .map(node => node.textContent).join("")"""


def fonts_drawing(page: Any, selector: str) -> dict[str, int]:
    """The fonts Chromium drew the text of the elements matching ``selector`` with:
    family name -> glyphs drawn."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")["root"]["nodeId"]
    drawn: dict[str, int] = {}
    for node in cdp.send("DOM.querySelectorAll", {"nodeId": root, "selector": selector})["nodeIds"]:
        for font in cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]:
            drawn[font["familyName"]] = drawn.get(font["familyName"], 0) + font["glyphCount"]
    cdp.detach()
    return drawn


def _fontconfig_value(text: str) -> str:
    return re.sub(r"([\\\-:,])", r"\\\1", text)


def characters_of(family: str, env: dict[str, str] | None = None) -> set[int]:
    """The code points fontconfig says the installed fonts of ``family`` have (empty when
    it knows no such family). ``env``: the environment the browser ran in
    (``FONTCONFIG_FILE``)."""
    out = subprocess.run(
        ["fc-list", "--format", "%{charset}\n", f":family={_fontconfig_value(family)}"],
        capture_output=True,
        text=True,
        check=True,
        env=env or dict(os.environ),
    ).stdout
    points: set[int] = set()
    for span in out.split():
        first, _, last = span.partition("-")
        points.update(range(int(first, 16), int(last or first, 16) + 1))
    return points


def check_script_drawn(
    page: Any, selector: str, language: str, *, at_least: int, env: dict[str, str] | None = None
) -> dict[str, int]:
    """AssertionError unless every character of ``language``'s script in the text of
    ``selector`` was drawn by a font that has it (no box), and fonts that have the
    script drew at least ``at_least`` glyphs there. Returns the fonts (family -> glyphs)."""
    drawn = fonts_drawing(page, selector)
    text = page.evaluate(_OWN_TEXT, selector)
    wanted = {ch for ch in text if SCRIPTS[language].match(ch)}
    assert wanted, f"no {language} text under {selector!r}"
    has = {family: characters_of(family, env) for family, glyphs in drawn.items() if glyphs}
    boxes = sorted(ch for ch in wanted if not any(ord(ch) in points for points in has.values()))
    assert not boxes, (
        f"{len(boxes)} characters drawn as boxes, no font used has them: "
        f"{''.join(boxes[:40])} (fonts: {drawn})"
    )
    of_script = sum(
        drawn[family] for family, points in has.items() if any(ord(ch) in points for ch in wanted)
    )
    assert of_script >= at_least, (
        f"fonts that have the {language} script drew {of_script} "
        f"glyphs, fewer than {at_least} (fonts: {drawn})"
    )
    return drawn
