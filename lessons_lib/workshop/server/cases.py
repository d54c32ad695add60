"""The hidden folder and the requests lesson 12's grader sends to a learner's server.

Introduced in lesson 12. The grader builds a fresh folder the learner never saw: a plan, a
Chinese diary with a Chinese file name, a sub-folder, a 2 MB log with a 300 KB line, a file
that is not UTF-8, a secret file *beside* the root and, where the platform lets us create one,
a link inside the root that leads to it, a folder beside the root whose name starts with the
root's name (a root check by string prefix lets it in), a linked folder inside the root that
leads out, and small files for the rules lesson 12 states: matches counted across files, literal
text (not a regular expression), one match per line, a last line without a final newline,
characters (not bytes), a ``path`` that names a file. Every request goes to the server over real frames;
:mod:`lessons_lib.workshop.server.grading` judges the replies, expectation by expectation.
"""

from __future__ import annotations

import functools
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Final

from lessons_lib.core.jsonvalue import JSONObject
from lessons_lib.core.messages import t

if TYPE_CHECKING:
    from jsonschema.protocols import Validator

TOOL: Final = "search_notes"
LOGICAL_ROOT: Final = "/workspace"
MAX_TEXT: Final = 200
MAX_REPLY_BYTES: Final = 64_000
SECRET: Final = "SECRET-7f3a"
"""The token of the file beside the root: no reply may ever contain it."""

PLAN: Final = "plan.txt"
DIARY: Final = "日记.md"
TODO: Final = "sub/todo.txt"
GINKGO: Final = "银杏"
"""The Chinese word lesson 12 searches for (data: the diary holds it)."""
BIG: Final = "big.log"
BINARY: Final = "logo.bin"
SYMLINK: Final = "link.txt"
SYMLINKED_DIR: Final = "linked"
"""A folder link inside the root that leads to a folder outside it (where links can be made)."""
KIWI: Final = "KIWI"
"""The word of the three ``limits/`` files: 3 + 3 + 2 lines, 8 in all."""
KIWI_FILES: Final = ("limits/a.txt", "limits/b.txt", "limits/c.txt")
EDGE: Final = "edge.txt"
TAIL: Final = "tail.txt"
WIDE: Final = "wide.txt"
WIDE_WORD: Final = "梧桐"
MAX_QUERY: Final = 100

_PLAN_TEXT: Final = "Project plan\nfirst deadline: Friday\nreview notes\nship it\nsecond deadline: Monday\n"
_DIARY_TEXT: Final = "周一：晴\n去公园散步\n门口的银杏叶全黄了，很好看。\n晚上读书\n"
_TODO_TEXT: Final = "deadline for the todo list\n" + "".join(f"TODO item {n}\n" for n in range(1, 31))
_HUGE_LINE: Final = "HUGE " + "x" * 300_000
_EDGE_TEXT: Final = "Q.Z is written here\nQxZ is not the same text\nf(K opens a bracket\nDUO and DUO again\n"
_TAIL_TEXT: Final = "the first line\nthe last line says TAILWORD"  # no final newline
_WIDE_TEXT: Final = "秋天" + WIDE_WORD + "叶子落满了院子" * 21 + "\n"  # 151 characters, 453 bytes


@dataclass(frozen=True)
class Hidden:
    """The grader's folder: where the root is, and whether the link case could be built."""

    base: Path
    root: Path
    has_symlink: bool

    def lines(self, rel: str) -> list[str]:
        """The lines of a file of the root, as the tool must number them."""
        return (self.root / rel).read_text(encoding="utf-8").split("\n")

    def expected(self, query: str, rels: tuple[str, ...]) -> list[JSONObject]:
        """Every match of ``query`` in these files, as ``{path, line, text}``."""
        return [
            {"path": f"{LOGICAL_ROOT}/{rel}", "line": n, "text": line[:MAX_TEXT]}
            for rel in rels
            for n, line in enumerate(self.lines(rel), start=1)
            if query in line
        ]


def build_hidden(base: Path) -> Hidden:
    """Write the grader's folder under ``base`` (a fresh temporary folder)."""
    root = base / "root"
    (root / "sub").mkdir(parents=True)
    (base / "secret.txt").write_text(f"{SECRET}: outside the root\n", encoding="utf-8")
    (root / PLAN).write_text(_PLAN_TEXT, encoding="utf-8", newline="\n")
    (root / DIARY).write_text(_DIARY_TEXT, encoding="utf-8", newline="\n")
    (root / TODO).write_text(_TODO_TEXT, encoding="utf-8", newline="\n")
    bulk = "".join(f"row {n}: {'BULK' if n % 20 == 0 else 'bulk'} data\n" for n in range(40_000))
    (root / BIG).write_text(bulk + _HUGE_LINE + "\n", encoding="utf-8", newline="\n")
    (root / BINARY).write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe BINARYWORD \xc3\x28\xff\n")
    for rel, count in zip(KIWI_FILES, (3, 3, 2), strict=True):
        (root / rel).parent.mkdir(exist_ok=True)
        lines = "".join(f"{KIWI} {rel} {n}\n" for n in range(1, count + 1))
        (root / rel).write_text(lines, encoding="utf-8", newline="\n")
    for rel, text in ((EDGE, _EDGE_TEXT), (TAIL, _TAIL_TEXT), (WIDE, _WIDE_TEXT)):
        (root / rel).write_text(text, encoding="utf-8", newline="\n")
    for outside in (base / f"{root.name}-private", base / "elsewhere"):  # beside the root
        outside.mkdir()
        (outside / "secret.txt").write_text(f"{SECRET}: outside the root\n", encoding="utf-8")
    has_symlink = True
    try:  # a capability, not a given: Windows needs a privilege to create links
        os.symlink(base / "secret.txt", root / SYMLINK)
        os.symlink(base / "elsewhere", root / SYMLINKED_DIR, target_is_directory=True)
    except (OSError, NotImplementedError):
        has_symlink = False
    return Hidden(base, root, has_symlink)


@dataclass(frozen=True)
class Ask:
    """One request the grader sends: a key to find its reply, a method, params."""

    key: str
    method: str
    params: JSONObject | None = None


def search(key: str, arguments: JSONObject, tool: str = TOOL) -> Ask:
    """A ``tools/call`` request with these arguments."""
    return Ask(key, "tools/call", {"name": tool, "arguments": arguments})


def asks(hidden: Hidden) -> list[Ask]:
    """Every request, in the order the expectations are judged (a crash cuts off only later ones)."""
    outside = [
        search("out_dotdot", {"query": "outside the root", "path": "/workspace/../secret.txt"}),
        search(
            "out_prefix", {"query": "outside the root", "path": f"/workspace/../{hidden.root.name}-private"}
        ),
        search("out_absolute", {"query": "outside the root", "path": "/etc"}),
        search("out_relative", {"query": "outside the root", "path": "../secret.txt"}),
        search("out_sibling", {"query": "outside the root", "path": "/workspace-old"}),
    ]
    if hidden.has_symlink:
        outside += [
            search("out_link", {"query": "outside the root", "path": f"/workspace/{SYMLINK}"}),
            search("out_link_dir", {"query": "outside the root", "path": f"/workspace/{SYMLINKED_DIR}"}),
            search("out_link_walk", {"query": "outside the root"}),
        ]
    return [
        Ask("list", "tools/list"),
        search("finds", {"query": "deadline"}),
        search("non_ascii", {"query": GINKGO, "limit": 5}),
        search("folder", {"query": "deadline", "path": "/workspace/sub"}),
        search("limit_3", {"query": "TODO", "limit": 3}),
        search("limit_default", {"query": "TODO"}),
        search("limit_across", {"query": KIWI, "limit": 4}),
        search("limit_exact", {"query": KIWI, "limit": 8}),
        search("limit_later", {"query": KIWI, "limit": 3}),
        search("literal_dot", {"query": "Q.Z"}),
        search("literal_bracket", {"query": "f(K"}),
        search("per_line", {"query": "DUO"}),
        search("last_line", {"query": "TAILWORD"}),
        search("characters", {"query": WIDE_WORD}),
        search("file_path", {"query": "deadline", "path": f"/workspace/{PLAN}"}),
        search("bad_missing", {}),
        search("bad_type", {"query": 5}),
        search("bad_blank", {"query": "   "}),
        search("bad_tabs", {"query": "\t\t"}),
        search("bad_long", {"query": "x" * (MAX_QUERY + 1)}),
        search("bad_zero", {"query": "TODO", "limit": 0}),
        search("bad_big", {"query": "TODO", "limit": 21}),
        *outside,
        search("missing", {"query": "TODO", "path": "/workspace/nothing-here"}),
        search("big_bulk", {"query": "BULK", "limit": 20}),
        search("big_line", {"query": "HUGE"}),
        search("binary", {"query": "BINARYWORD"}),
        search("unknown", {"query": "TODO"}, tool="delete_notes"),
        search("after", {"query": GINKGO}),
    ]


SCHEMA_ACCEPTS: Final[tuple[JSONObject, ...]] = (
    {"query": "deadline"},
    {"query": "deadline", "limit": 1},
    {"query": "deadline", "limit": 20},
    {"query": GINKGO, "path": "/workspace/sub"},
)
SCHEMA_REJECTS: Final[tuple[tuple[JSONObject, str], ...]] = (
    ({}, "server_cases.reject.no_query"),
    ({"query": 5}, "server_cases.reject.query_number"),
    ({"query": ""}, "server_cases.reject.query_empty"),
    ({"query": "x" * (MAX_QUERY + 1)}, "graders.server.reject.query_long"),
    ({"query": "deadline", "limit": "5"}, "server_cases.reject.limit_string"),
    ({"query": "deadline", "limit": 2.5}, "server_cases.reject.limit_fraction"),
    ({"query": "deadline", "limit": 0}, "server_cases.reject.limit_zero"),
    ({"query": "deadline", "limit": 21}, "server_cases.reject.limit_21"),
)
BAD_FIELDS: Final = {
    "bad_missing": ("query", "server_cases.bad.no_query"),
    "bad_type": ("query", "server_cases.bad.query_number"),
    "bad_blank": ("query", "server_cases.bad.query_blank"),
    "bad_tabs": ("query", "graders.server.bad.query_tabs"),
    "bad_long": ("query", "graders.server.bad.query_long"),
    "bad_zero": ("limit", "server_cases.bad.limit_zero"),
    "bad_big": ("limit", "server_cases.bad.limit_21"),
}


def text_of(result: JSONObject) -> str:
    blocks = result.get("content")
    return (
        "\n".join(str(b.get("text", "")) for b in blocks if isinstance(b, dict))
        if isinstance(blocks, list)
        else ""
    )


def json_equal(text: object, data: JSONObject) -> bool:
    try:
        return isinstance(text, str) and json.loads(text) == data
    except ValueError:
        return False


def invalid(instance: object, schema: object) -> str | None:
    """The first validation error of ``instance`` under a JSON Schema (2020-12 unless it says)."""
    if not isinstance(schema, dict):
        return t("server_cases.no_schema")
    checker = _validator(json.dumps(schema, sort_keys=True))
    if isinstance(checker, str):
        return t("server_cases.bad_schema", message=checker)
    error = next(iter(checker.iter_errors(instance)), None)
    if error is None:
        return None
    where = "/".join(map(str, error.absolute_path)) or t("server_cases.top_level")
    return t("server_cases.invalid", where=where, message=error.message)


@functools.lru_cache(maxsize=64)
def _validator(schema_text: str) -> Validator:
    """One checked validator per schema text (checking a schema costs more than using it)."""
    from jsonschema import Draft202012Validator, exceptions, validators

    schema = json.loads(schema_text)
    cls = validators.validator_for(schema, default=Draft202012Validator)
    try:
        cls.check_schema(schema)
    except exceptions.SchemaError as exc:
        return str(exc.message)  # the words around it are added at use: the language may change
    return cls(schema)


SHAPE: Final[JSONObject] = {
    "type": "object",
    "required": ["matches", "truncated"],
    "properties": {
        "truncated": {"type": "boolean"},
        "matches": {
            "type": "array",
            "items": {
                "type": "object",
                "required": ["path", "line", "text"],
                "properties": {
                    "path": {"type": "string"},
                    "line": {"type": "integer", "minimum": 1},
                    "text": {"type": "string", "maxLength": MAX_TEXT},
                },
            },
        },
    },
}
"""The result every correct server gives (its own outputSchema may say more)."""
