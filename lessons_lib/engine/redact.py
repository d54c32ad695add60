"""Hiding the API key in everything a run shows or saves. Introduced in lesson 00.

Written here because no library does it: the key must disappear not only as a whole but as
any fragment an endpoint might echo, and in linear time whatever the text's length.

Values only, never keys or structure: :func:`redact_json` leaves every object key
alone, and the values that name a document's shape (``format``, ``type``, ``role``, the trace's
``channel`` and ``label`` ...: :data:`STRUCTURE`), so a cleaned trace is still a trace whatever
the key. A key shorter than :data:`MIN_FRAGMENT` (``a``, ``sk``, local servers' placeholders)
is hidden where it stands as a whole word, never inside another word.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Final

OFFLINE_KEY: Final = "offline-stand-in-no-key"
"""The stand-in's placeholder key: nothing to hide."""

MIN_FRAGMENT: Final = 8
"""Every run of this many characters of the key is hidden wherever it appears."""

_BLOCK: Final = MIN_FRAGMENT // 2
_KEYISH = re.compile(r"[A-Za-z0-9_-]*")  # the characters API keys are made of
_KEYCHARS: Final = "A-Za-z0-9_-"

STRUCTURE: Final = frozenset(
    {
        "format",
        "seq",
        "channel",
        "from",
        "to",
        "label",
        "jsonrpc",
        "type",
        "role",
        "status",
        "mode",
        "api",
        "object",
    }
)
"""Keys whose values name a document's shape (the trace's envelope, the APIs' and JSON-RPC's
fixed words): never a place a key is echoed, and never rewritten."""


def redact(text: str, secret: str) -> str:
    """Hide a secret in text shown or saved: every fragment of it of 8 or more characters, and
    a masked echo of its first or last characters (``sk-test-Qz7******Na6E``). Lesson 00.

    Linear in the text (written here because no library does it): a fragment of 8 or more
    characters always contains one of the key's aligned 4-character blocks, so only those
    blocks are searched (``str.find``), and each hit is extended by at most the key's length.
    """
    if not secret or secret == OFFLINE_KEY or not text:
        return text
    if len(secret) < MIN_FRAGMENT:  # a whole word only: "a" must not eat every "a" of the text
        return re.sub(rf"(?<![{_KEYCHARS}]){re.escape(secret)}(?![{_KEYCHARS}])", "***", text)
    text = text.replace(secret, "***")  # the whole key first, at C speed
    spans = _fragments(text, secret)
    if spans:
        text = _cut(text, spans)
    if "**" in text or ".." in text or "…" in text:
        text = _cut(text, list(_masked_echoes(text, secret)))
    return text


def redact_json(value: object, secret: str) -> object:
    """The same JSON value with :func:`redact` applied to every string value.

    Structure stays: the values of :data:`STRUCTURE` keys are never rewritten, and neither is an
    object key, except one that holds a fragment of a real key (8 characters or more: a model can
    echo the key as an argument's name). A short key therefore never touches a key or the shape.
    """
    if isinstance(value, str):
        return redact(value, secret)
    if isinstance(value, list):
        return [redact_json(v, secret) for v in value]
    if isinstance(value, dict):
        return {_key(k, secret): v if _shape_word(k, v) else redact_json(v, secret) for k, v in value.items()}
    return value


def _key(key: str, secret: str) -> str:
    return redact(key, secret) if len(secret) >= MIN_FRAGMENT else key


def _shape_word(key: str, value: object) -> bool:
    return key in STRUCTURE and not isinstance(value, dict | list)


def _fragments(text: str, secret: str) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    for j in range(0, len(secret) - _BLOCK + 1, _BLOCK):
        block = secret[j : j + _BLOCK]
        at = text.find(block)
        while at != -1:
            left = _common(text[max(0, at - j) : at][::-1], secret[:j][::-1])
            end = at + _BLOCK
            right = _common(text[end : end + len(secret) - j - _BLOCK], secret[j + _BLOCK :])
            if left + _BLOCK + right >= MIN_FRAGMENT:
                spans.append((at - left, end + right))
            at = text.find(block, at + 1)
    return spans


def _common(a: str, b: str) -> int:
    """Length of the common prefix of two strings."""
    if a.startswith(b) or b.startswith(a):
        return min(len(a), len(b))
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def _masked_echoes(text: str, secret: str) -> Iterator[tuple[int, int]]:
    """Masks (``***``, ``...``, ``…``) with a start or end of the secret next to them, as API
    errors print a key."""
    width = len(secret)
    for start, end in _masks(text):
        head = _trailing_keyish(text[max(0, start - width) : start])
        tail = _KEYISH.match(text, end, end + width)
        after = tail.group(0) if tail else ""
        if (head and secret.startswith(head)) or (after and secret.endswith(after)):
            yield start - len(head), end + len(after)


def _masks(text: str) -> Iterator[tuple[int, int]]:
    """Each run of 3+ stars or dots, and each ellipsis character (``str.find``, not a regex)."""
    for mark, least in (("*", 3), (".", 3), ("…", 1)):
        at = text.find(mark * least)
        while at != -1:
            end = at + least
            while end < len(text) and text[end] == mark:
                end += 1
            yield at, end
            at = text.find(mark * least, end)


def _trailing_keyish(text: str) -> str:
    n = 0
    for ch in reversed(text):
        if not (ch.isascii() and (ch.isalnum() or ch in "_-")):
            break
        n += 1
    return text[len(text) - n :]


def _cut(text: str, spans: list[tuple[int, int]]) -> str:
    """Replace each span (overlapping ones merged) with ``***``."""
    out: list[str] = []
    pos = 0
    for start, end in sorted(spans):
        if start < pos:  # overlaps the span just replaced: widen it
            pos = max(pos, end)
            continue
        out += [text[pos:start], "***"]
        pos = end
    out.append(text[pos:])
    return "".join(out)
