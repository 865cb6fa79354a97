"""Untrusted text on the dashboard: names, tag values and ids shown as they are, never as Markdown.

Streamlit renders Markdown in headers, captions, info boxes, metric labels and help
tooltips. Player names, events, tag values and a ``game_id`` typed into the URL come from
records or links anyone can write, so every one of them goes through :func:`escape_md`
before it is put into such text (plain-text elements, tables and chart titles need no
escaping).
"""

from __future__ import annotations

import re
import string

#: CommonMark lets a backslash escape any ASCII punctuation character.
_PUNCTUATION = frozenset(string.punctuation)
#: An invisible character that joins words (U+2060 WORD JOINER).
WORD_JOINER = "\u2060"
#: Written after these, it breaks the addresses GitHub-flavoured Markdown turns into links
#: even when escaped (``http://``, ``www.``, ``a@b.c``).
_AUTOLINK_BREAKS = frozenset(":.@")


def escape_md(text: object) -> str:
    """``text`` as Markdown that shows it as is (``None``: an empty string).

    Every ASCII punctuation character is backslash-escaped, so no emphasis, link, code
    span, Streamlit directive (``:red[...]``, ``:material/x:``) or formula (``$...$``) can
    start inside it. Streamlit also links bare addresses after parsing, escapes or not, so
    an invisible word joiner follows every ``:``, ``.`` and ``@``: ``http:``, the joiner,
    ``//`` is no address. Line breaks become spaces, so it cannot open a new block (a
    heading, a list).
    """
    if text is None:
        return ""
    flat = " ".join(str(text).splitlines())
    return "".join(
        (f"\\{c}" if c in _PUNCTUATION else c) + (WORD_JOINER if c in _AUTOLINK_BREAKS else "")
        for c in flat)


def code_span(text: object) -> str:
    """``text`` as a Markdown code span, shown exactly as written (a file's path: no
    backslash of :func:`escape_md` shows inside a code span, so it is not escaped).

    The fence is one backtick longer than the longest run of backticks in ``text``, and a
    space pads a text that starts or ends with a backtick or with spaces at both ends
    (CommonMark strips one each side). Line breaks become spaces; no text, no span.
    """
    flat = " ".join(str(text).splitlines())
    if not flat:
        return ""
    fence = "`" * (max(map(len, re.findall("`+", flat)), default=0) + 1)
    spaced = flat[0] == flat[-1] == " " and flat.strip(" ")
    pad = " " if "`" in (flat[0], flat[-1]) or spaced else ""
    return f"{fence}{pad}{flat}{pad}{fence}"
