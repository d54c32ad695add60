"""Two messages side by side, their shared values numbered and linked (lesson 05).

``side_by_side(response_1, mcp_request)`` links the model's ``arguments`` (JSON text) to the
MCP ``params.arguments`` (an object): JSON text is parsed before comparing. Envelopes, booleans
and nulls are never linked, and only the outermost pair of equal subtrees is kept.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass

from lessons_lib.core.display import Displayable
from lessons_lib.core.fieldkinds.kinds import Field
from lessons_lib.core.fieldpath import PathT, format_path
from lessons_lib.core.glossary import KINDS, Kind, kind_short
from lessons_lib.core.htmltable import Cell, code, html_table, markup
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t
from lessons_lib.views.fieldtree import FieldTree, _page, json_text_value, load_message
from lessons_lib.views.legend import ink, kind_chip, legend_html, legend_text


@dataclass(frozen=True)
class Link:
    """Two fields, one on each side, that hold the same value (after parsing JSON text)."""

    number: int
    left: PathT
    right: PathT
    kind: Kind
    parsed: str  # "" or "left" / "right": that side is JSON text, compared after parsing


def _canon(f: Field) -> tuple[str, bool] | None:
    if f.kind == "envelope" or f.value is None or isinstance(f.value, bool) or f.value in ("", [], {}):
        return None
    parsed = json_text_value(f.value)
    value = f.value if parsed is None else parsed
    return json.dumps(value, sort_keys=True, ensure_ascii=False), parsed is not None


def find_links(left: FieldTree, right: FieldTree) -> list[Link]:
    """Equal values across two trees, keeping only the outermost pair of equal subtrees."""
    index: dict[str, list[tuple[Field, bool]]] = {}
    for g in right.fields:
        c = _canon(g)
        if c is not None:
            index.setdefault(c[0], []).append((g, c[1]))
    pairs = []
    for f in left.fields:
        c = _canon(f)
        for g, g_parsed in index.get(c[0], []) if c else []:
            pairs.append((f, g, "left" if c and c[1] else "right" if g_parsed else ""))
    seen = {(f.path, g.path) for f, g, _ in pairs}
    keep = [
        (f, g, how)
        for f, g, how in pairs
        if not any(
            (f.path[:i], g.path[:j]) in seen
            for i in range(len(f.path) + 1)
            for j in range(len(g.path) + 1)
            if (i, j) != (len(f.path), len(g.path))
        )
    ]
    return [Link(n, f.path, g.path, f.kind, how) for n, (f, g, how) in enumerate(keep, start=1)]


class SideBySide(Displayable):
    """Two field trees next to each other with their shared values numbered (lesson 05)."""

    def __init__(self, left: FieldTree, right: FieldTree) -> None:
        self.left, self.right = left, right
        self.links = find_links(left, right)
        digest = json.dumps([left.message, right.message], sort_keys=True, ensure_ascii=False)
        self._id = "ft" + hashlib.sha256(digest.encode()).hexdigest()[:8]

    def _note(self, link: Link) -> str:
        if link.parsed == "left":
            return t("sidebyside.parsed_left")
        return t("sidebyside.parsed_right") if link.parsed == "right" else t("sidebyside.equal")

    def text(self) -> str:
        lm: dict[PathT, str] = {}
        rm: dict[PathT, str] = {}
        for k in self.links:
            lm[k.left] = (lm.get(k.left, "") + f" ⇄{k.number}").strip()
            rm[k.right] = (rm.get(k.right, "") + f" ⇄{k.number}").strip()
        out = [
            legend_text(),
            "",
            t("sidebyside.left", tree=self.left.text(lm, legend=False)),
            t("sidebyside.right", tree=self.right.text(rm, legend=False)),
        ]
        out.append(t("sidebyside.same_values", n=len(self.links)))
        root = t("tree.root")
        out += [
            t(
                "sidebyside.link",
                number=k.number,
                kind=kind_short(k.kind),
                left=format_path(k.left) or root,
                right=format_path(k.right) or root,
                note=self._note(k),
            )
            for k in self.links
        ]
        return "\n".join(out) + "\n"

    def html(self) -> str:
        def badges(side: str, other: str) -> dict[PathT, str]:
            out: dict[PathT, str] = {}
            trees = {"l": self.left, "r": self.right}
            for k in self.links:
                mine, theirs = (k.left, k.right) if side == "l" else (k.right, k.left)
                target = {f.path: i for i, f in enumerate(trees[other].fields)}[theirs]
                out[mine] = out.get(mine, "") + (
                    f' <a href="#{self._id}-{other}-{target}" style="background:{KINDS[k.kind].colour};'
                    f"color:{ink(KINDS[k.kind].colour)};border-radius:8px;padding:0 .4em;"
                    f'text-decoration:none;font-size:85%">⇄{k.number}</a>'
                )
            return out

        col = '<div style="flex:1 1 26em;min-width:0;overflow-x:auto">'
        cols = "".join(
            col + tree.html(legend=False, id_prefix=f"{self._id}-{s}", badges=badges(s, o)) + "</div>"
            for tree, s, o in ((self.left, "l", "r"), (self.right, "r", "l"))
        )
        rows = [
            (
                Cell(f"⇄{k.number}", nowrap=True),
                markup(kind_chip(k.kind, kind_short(k.kind)), nowrap=True),
                code(format_path(k.left) or t("tree.root")),
                code(format_path(k.right) or t("tree.root")),
                self._note(k),
            )
            for k in self.links
        ]
        table = (
            html_table(
                tuple(t(f"sidebyside.head.{h}") for h in ("number", "kind", "left", "right", "compare")),
                rows,
                style="margin-top:.6em;font-size:13px;border-collapse:collapse",
                row_styles=["border-top:1px solid #ddd"] * len(rows),
            )
            if self.links
            else t("sidebyside.no_links")
        )
        return (
            f'<div class="lessons-side-by-side">{legend_html()}<div style="display:flex;gap:1.2em;'
            f'align-items:flex-start;flex-wrap:wrap">{cols}</div>{table}</div>'
        )

    def page(self) -> str:
        return _page(t("sidebyside.page", left=self.left.title, right=self.right.title), self.html())

    def repr_args(self) -> str:
        return f"{self.left.title!r}, {self.right.title!r}, links={len(self.links)}"


def side_by_side(
    left: JSON,
    right: JSON,
    *,
    highlight: str | Sequence[str] | None = None,
    titles: tuple[str, str] | None = None,
    open_depth: int = 3,
) -> SideBySide:
    """Two messages next to each other, equal values numbered and linked (lesson 05).

    E.g. ``side_by_side("response_1", "mcp_request")`` links the model's ``arguments`` text to
    the MCP ``params.arguments`` object. ``highlight`` applies to both sides (it must match one).
    A side given as ``field_tree(msg, only=...)`` shows (and links) only that part (lesson 06).
    """
    trees = []
    for i, obj in enumerate((left, right)):
        msg, default_title, hint = load_message(obj)
        trees.append(
            FieldTree(
                msg,
                title=titles[i] if titles else default_title,
                message_type=hint,
                highlight=highlight,
                open_depth=open_depth,
                strict=False,
                only=[format_path(r) for r in obj.roots] if isinstance(obj, FieldTree) and obj.part else None,
            )
        )
    if highlight and not (trees[0].highlighted or trees[1].highlighted):
        raise ValueError(f"highlight {highlight!r} matches no field on either side")
    return SideBySide(trees[0], trees[1])
