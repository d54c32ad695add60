"""``import lessons_lib`` defers jsonschema's IRI grammars without changing a verdict (issue 27)."""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

PROBE = """
import json, sys
{first}
import jsonschema
loaded = "rfc3987_syntax" in sys.modules
cases = ["http://example.com/a b", "http://例子.测试/路径?q=1", "not an iri", "//host/x", "#frag", "", 3]
verdicts = {{}}
for fmt in ("iri", "iri-reference"):
    for cls in (jsonschema.Draft7Validator, jsonschema.Draft201909Validator, jsonschema.Draft202012Validator):
        v = cls({{"format": fmt}}, format_checker=cls.FORMAT_CHECKER)
        verdicts[f"{{cls.__name__}} {{fmt}}"] = [v.is_valid(c) for c in cases]
    verdicts[f"FormatChecker() {{fmt}}"] = [jsonschema.FormatChecker().conforms(c, fmt) for c in cases]
print(json.dumps({{"loaded_at_import": loaded, "formats": sorted(jsonschema.FormatChecker.checkers),
                  "verdicts": verdicts, "loaded_after": "rfc3987_syntax" in sys.modules}}))
"""


def _probe(first: str) -> dict[str, object]:
    proc = subprocess.run(
        [sys.executable, "-c", PROBE.format(first=first)], capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-1500:]
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


@pytest.mark.skipif(
    importlib.util.find_spec("rfc3987_syntax") is None or importlib.util.find_spec("rfc3987") is not None,
    reason="jsonschema imports rfc3987_syntax only when it is installed and rfc3987 is not",
)
def test_the_iri_checks_give_the_same_verdicts_and_load_on_first_use() -> None:
    plain, deferred = _probe(""), _probe("import lessons_lib")
    assert plain["loaded_at_import"] is True, "without lessons_lib jsonschema builds the grammars at import"
    assert deferred["loaded_at_import"] is False, "with lessons_lib the grammars wait"
    assert deferred["formats"] == plain["formats"], "the same formats are checked"
    assert deferred["verdicts"] == plain["verdicts"], "and every check gives the same verdict"
    assert deferred["loaded_after"] is True, "the first iri check loaded the grammars"


def test_jsonschema_imported_first_is_left_alone() -> None:
    got = _probe("import jsonschema as _early\nimport lessons_lib")
    assert got["loaded_at_import"] is (importlib.util.find_spec("rfc3987_syntax") is not None and
                                       importlib.util.find_spec("rfc3987") is None)  # fmt: skip
