"""Field trees: any message drawn as a tree of paths, values and kinds (lesson 03).

``field_tree(msg)`` shows every field with its path, its value and its kind, one colour per
kind (``lessons_lib.core.glossary.KINDS``): collapsible HTML in JupyterLab (``<details>``, no
JavaScript), an indented text tree in a terminal. ``side_by_side(a, b)`` puts two messages
next to each other and numbers the values they share, parsing JSON text (the model's
``arguments``) so it can be compared with an object (the MCP ``params.arguments``).
``only=`` shows a part of a message (one or more subtrees) with its full paths and kinds, so a
lesson that has shown a whole message once can point at a part of it without repeating it;
``fold=`` does the opposite: it draws a subtree already shown (a declaration that every later
message repeats) as one row marked "folded", so the rest of the message is shown without it.
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from lessons_lib.core.display import Displayable
from lessons_lib.core.fieldkinds.kinds import Field, nodes_along, walk
from lessons_lib.core.fieldkinds.kindtables import type_title
from lessons_lib.core.fieldkinds.msgtype import detect_type
from lessons_lib.core.fieldpath import PathT, Pattern, format_path
from lessons_lib.core.glossary import HIGHLIGHT_COLOUR, KINDS, kind_short
from lessons_lib.core.htmltable import PRE_STYLE
from lessons_lib.core.jsonvalue import JSON
from lessons_lib.core.messages import t
from lessons_lib.core.traces.trace import event_number
from lessons_lib.views.legend import kind_chip, legend_html, legend_text
from lessons_lib.views.textwidth import shorten, width

_PREVIEW = 38  # display columns of a value preview in text
_PREVIEW_HTML = 72
_HL_BG = "#FFF3B0"
_MONO = "ui-monospace,SFMono-Regular,Menlo,Consolas,'DejaVu Sans Mono','WenQuanYi Micro Hei Mono',monospace"


def json_text_value(value: JSON) -> JSON:
    """The parsed object if ``value`` is JSON text of an object or array, else None."""
    if isinstance(value, str) and value.lstrip()[:1] in {"{", "["}:
        try:
            parsed = json.loads(value)
        except ValueError:
            return None
        return parsed if isinstance(parsed, dict | list) else None
    return None


def _preview(value: Any, cols: int = _PREVIEW) -> str:
    if isinstance(value, dict):  # "{1 key}", "{2 keys}": one is singular in English
        return t("p2a.tree.one_key" if len(value) == 1 else "tree.keys", n=len(value))
    if isinstance(value, list):
        return t("p2a.tree.one_item" if len(value) == 1 else "tree.items", n=len(value))
    text = json.dumps(value, ensure_ascii=False)
    note = t("tree.json_text") if json_text_value(value) is not None else ""
    if width(text) > cols:
        return t("tree.shortened", text=shorten(text, cols), n=len(value), note=note)
    return text + note


def _kind_label(f: Field) -> str:
    return t("tree.unclassified") if f.match.unclassified else kind_short(f.kind)


class FieldTree(Displayable):
    """One message as a field tree; build it with ``field_tree()`` (lesson 03)."""

    def __init__(
        self,
        message: JSON,
        *,
        title: str | None = None,
        message_type: str | None = None,
        highlight: str | Sequence[str] | None = None,
        open_depth: int = 3,
        strict: bool = True,
        only: str | Sequence[str] | None = None,
        fold: str | Sequence[str] | None = None,
    ) -> None:
        self.message = message
        self.title = t("tree.message") if title is None else title
        self.message_type = message_type or detect_type(message)
        self.fields = list(walk(message, self.message_type))
        # the shown subtrees' roots: the whole message, or the parts ``only`` names
        self.roots: list[PathT] = [()]
        if only is not None:
            hits = self._resolve(only, True, "only")
            self.roots = [r for r in hits if not any(r[: len(o)] == o and r != o for o in hits)]
            self.fields = [f for f in self.fields if any(f.path[: len(r)] == r for r in self.roots)]
        # folded subtrees: their root stays as one row, everything under it is left out
        self.folded: list[PathT] = self._resolve(fold, True, "fold") if fold is not None else []
        self.fields = [
            f for f in self.fields if not any(f.path[: len(p)] == p != f.path for p in self.folded)
        ]
        self._by_path = {f.path: f for f in self.fields}
        self.open_depth = open_depth
        self.highlighted = self._resolve(highlight, strict)

    def _resolve(
        self, wanted: str | Sequence[str] | None, strict: bool, what: str = "highlight"
    ) -> list[PathT]:
        found: list[PathT] = []
        for text in [wanted] if isinstance(wanted, str) else list(wanted or []):
            pattern = Pattern.compile(text)
            hits = [f.path for f in self.fields if pattern.matches(f.path, nodes_along(self.message, f.path))]
            if not hits and strict:
                sample = next((f.path_text for f in self.fields if len(f.path) >= 2), "model")
                raise ValueError(
                    f"{what} {text!r} matches no field of {self.title}; paths look like {sample!r}"
                )
            found += [h for h in hits if h not in found]
        return found

    @property
    def part(self) -> str:
        """The shown parts' paths, e.g. ``"input[2]"``; empty when the whole message is shown."""
        return "" if self.roots == [()] else t("sep.list").join(format_path(r) for r in self.roots)

    def _key(self, path: PathT) -> str:
        if path in self.roots:  # a shown part's root: its full path says where it sits
            return format_path(path) or t("tree.root")
        return f"[{path[-1]}]" if isinstance(path[-1], int) else str(path[-1])

    def _heading(self) -> str:
        kind, part = type_title(self.message_type), self.part
        if part:
            return t("tree.heading_part", title=self.title, kind=kind, part=part)
        return t("tree.heading", title=self.title, kind=kind)

    def kinds(self) -> dict[str, str]:
        """Path text -> kind (unclassified fields as ``"unclassified"``)."""
        return {f.path_text: "unclassified" if f.match.unclassified else f.kind for f in self.fields}

    def __getitem__(self, path: str) -> Field:
        from lessons_lib.core.fieldpath import parse_path

        return self._by_path[parse_path(path)]

    # ------------------------------------------------------------ text
    def text(self, marks: dict[PathT, str] | None = None, *, legend: bool = True) -> str:
        marks = dict(marks or {})
        for p in self.highlighted:
            marks[p] = (marks.get(p, "") + " " + t("tree.highlight")).strip()
        rows: list[tuple[str, Field]] = []

        def visit(path: PathT, prefix: str, connector: str) -> None:
            f = self._by_path[path]
            folded = f"  {t('p1a.tree.folded')}" if path in self.folded else ""
            rows.append((f"{prefix}{connector}{self._key(path)}: {_preview(f.value)}{folded}", f))
            kids = (
                [(*path, k) for k in (f.value if isinstance(f.value, dict) else range(len(f.value)))]
                if isinstance(f.value, dict | list) and not folded
                else []
            )
            child_prefix = prefix + ("" if not connector else "    " if connector == "└── " else "│   ")
            for i, kid in enumerate(kids):
                visit(kid, child_prefix, "└── " if i == len(kids) - 1 else "├── ")

        for root in self.roots:
            visit(root, "", "")
        col = min(max(width(left) for left, _ in rows), 60) + 2
        kcol = max(8, max(width(_kind_label(f)) for _, f in rows) + 2)  # 8 in Chinese: 未分类 + 2
        head = [t("tree.title", heading=self._heading())]
        if legend:
            head.append(legend_text())
        lines = head + [
            (
                left
                + " " * max(2, col - width(left))
                + _kind_label(f)
                + " " * (kcol - width(_kind_label(f)))
                + (f.path_text or t("tree.root"))
                + (f"  {marks[f.path]}" if f.path in marks else "")
            ).rstrip()
            for left, f in rows
        ]
        return "\n".join(lines) + "\n"

    # ------------------------------------------------------------ HTML
    def _open_paths(self, extra: Iterable[PathT]) -> set[PathT]:
        opened: set[PathT] = set()
        for p in [*self.highlighted, *extra]:
            opened.update(p[:i] for i in range(len(p) + 1))
        return opened

    def html(
        self, *, legend: bool = True, id_prefix: str = "", badges: dict[PathT, str] | None = None
    ) -> str:
        """An HTML fragment; ``badges`` adds link markers (HTML) after a field's row."""
        badges = badges or {}
        opened = self._open_paths(badges)
        index = {f.path: i for i, f in enumerate(self.fields)}

        def row(f: Field) -> str:
            key = self._key(f.path)
            hl = f.path in self.highlighted
            chip = kind_chip(f.kind, _kind_label(f))
            title = f' title="{html.escape(f.match.pattern or t("tree.unclassified_title"))}"'
            style = f"border-left:4px solid {KINDS[f.kind].colour};padding-left:.4em"
            if hl:
                style += f";background:{_HL_BG};outline:2px solid {HIGHLIGHT_COLOUR}"
            anchor = f' id="{id_prefix}-{index[f.path]}"' if id_prefix else ""
            mark = (
                f' <b style="color:{HIGHLIGHT_COLOUR}">{html.escape(t("tree.highlight"))}</b>' if hl else ""
            )
            data = f' data-path="{html.escape(f.path_text)}"'
            folded = f" <i>{html.escape(t('p1a.tree.folded'))}</i>" if f.path in self.folded else ""
            return (
                f'<span{anchor}{data}{title} style="{style}">{chip} <b>{html.escape(key)}</b>: '
                f"{html.escape(_preview(f.value, _PREVIEW_HTML))}{folded} "
                f'<code style="color:#777;font-size:85%">{html.escape(f.path_text or t("tree.root"))}</code>'
                f"{mark}{badges.get(f.path, '')}</span>"
            )

        def node(path: PathT, depth: int) -> str:
            f = self._by_path[path]
            is_open = path in opened or (isinstance(f.value, dict | list) and depth < self.open_depth)
            attr = " open" if is_open else ""
            if isinstance(f.value, dict | list) and path not in self.folded:
                keys = f.value if isinstance(f.value, dict) else range(len(f.value))
                inner = "".join(node((*path, k), depth + 1) for k in keys)
                return (
                    f'<details{attr}><summary>{row(f)}</summary><div style="margin-left:1.2em;'
                    f'border-left:1px dotted #bbb;padding-left:.5em">{inner}</div></details>'
                )
            if isinstance(f.value, str) and (
                width(json.dumps(f.value, ensure_ascii=False)) > _PREVIEW_HTML or "\n" in f.value
            ):
                return (
                    f'<details{attr}><summary>{row(f)}</summary><pre style="margin:.2em 0 .4em 1.6em;'
                    f'{PRE_STYLE};background:#f6f6f6;padding:.3em">{html.escape(f.value)}</pre></details>'
                )
            return f'<div style="margin-left:1.05em">{row(f)}</div>'

        kind_title = type_title(self.message_type)
        part = f" · {t('tree.only')} <code>{html.escape(self.part)}</code>" if self.part else ""
        return (
            f'<div class="lessons-fieldtree" style="font-family:{_MONO};font-size:13px;line-height:1.6">'
            f'<div><b>{html.escape(t("tree.title", heading=self.title))}</b> <span style="color:#555">'
            f"{html.escape(kind_title)} · <code>{html.escape(self.message_type)}</code>{part}</span></div>"
            f"{legend_html() if legend else ''}{''.join(node(r, 0) for r in self.roots)}</div>"
        )

    def page(self) -> str:
        """A standalone HTML page with the legend, e.g. for a slide."""
        return _page(t("tree.title", heading=self.title), self.html())

    def repr_args(self) -> str:
        part = f", only={self.part!r}" if self.part else ""
        if self.folded:
            part += f", fold={t('sep.list').join(format_path(p) for p in self.folded)!r}"
        return f"{self.title!r}, type={self.message_type!r}, fields={len(self.fields)}{part}"


def _page(title: str, body: str) -> str:
    head = (
        f'<html lang="{t("html.lang")}">\n<head>\n<meta charset="utf-8">\n<title>{html.escape(title)}</title>'
    )
    return f'<!DOCTYPE html>\n{head}\n</head>\n<body style="margin:1.5em">\n{body}\n</body>\n</html>\n'


def load_message(obj: Any) -> tuple[Any, str, str | None]:
    """(message, title, type hint) from a dict, JSON text, a trace event, a file or a fixture name."""
    from lessons_lib.core.paths import DATA_DIR
    from lessons_lib.core.traces.trace import Trace

    if isinstance(obj, FieldTree):
        return obj.message, obj.title, obj.message_type
    if isinstance(obj, Trace):
        return obj.to_dict(), "trace", "trace"
    if isinstance(obj, dict) and {"seq", "label", "body"} <= set(obj):
        hint = detect_type(obj["body"], label=obj.get("label"))
        number, label = event_number(obj), obj["label"]
        title = t(
            "tree.event_title", number=number, label=label, source=obj.get("from"), target=obj.get("to")
        )
        return obj["body"], title, hint
    if isinstance(obj, dict | list):
        return obj, t("tree.message"), None
    if isinstance(obj, str) and obj.lstrip()[:1] in {"{", "["}:
        from lessons_lib.core.bounds import BoundsError, parse_json

        try:
            return parse_json(obj, what="this text"), t("tree.message"), None
        except BoundsError:
            raise
        except ValueError as exc:
            raise ValueError(f"this text is not valid JSON ({exc}); paste the whole message") from None
    if isinstance(obj, str | Path):
        p = Path(obj)
        for cand in (p, DATA_DIR / p, DATA_DIR / f"{p}.json"):
            if cand.is_file() or (cand is p and p.exists()):  # a pipe or device: one line below
                from lessons_lib.core.bounds import load_json_file

                try:
                    return load_json_file(cand), cand.stem, None
                except ValueError as exc:
                    raise ValueError(f"cannot read {cand.name} as JSON: {exc}") from None
        raise ValueError(
            f"no message file {str(obj)!r}: give a path, a fixture name like 'request_1', or a dict"
        )
    raise ValueError(f"cannot show a {type(obj).__name__} as a field tree: give a dict, JSON text or a file")


def field_tree(
    message: JSON,
    highlight: str | Sequence[str] | None = None,
    *,
    title: str | None = None,
    message_type: str | None = None,
    open_depth: int = 3,
    only: str | Sequence[str] | None = None,
    fold: str | Sequence[str] | None = None,
) -> FieldTree:
    """The field tree of a message: a dict, JSON text, a trace event, a file or a fixture name (lesson 03).

    ``highlight`` is a path or pattern (or a list), e.g. ``"tools[0].parameters.properties.path.type"``:
    it is opened and marked. ``open_depth`` levels are open to start with. ``only`` (a path or
    pattern, or a list; lesson 06) shows just those subtrees, keeping their full paths and kinds;
    ``fold`` (the same; lesson 06) draws each of those subtrees as one row marked "folded", for a
    part already shown above (``fold="tools"`` once the declaration has been drawn).
    """
    msg, default_title, hint = load_message(message)
    return FieldTree(
        msg,
        title=title or default_title,
        message_type=message_type or hint,
        highlight=highlight,
        open_depth=open_depth,
        only=only,
        fold=fold,
    )
