"""A plug-in named in an environment variable that cannot be found is one line on the command
line, exit 2, never a traceback (lessons 20 and 30: ``LESSONS_LIB_EXAMPLES``, ``LESSONS_LIB_APIS``,
``LESSONS_LIB_SERVICES``)."""

from __future__ import annotations

import pytest
from _engine_support import clean_env, cli


@pytest.mark.parametrize("variable", ["LESSONS_LIB_EXAMPLES", "LESSONS_LIB_APIS", "LESSONS_LIB_SERVICES"])
@pytest.mark.parametrize("argv", [["--help"], ["whatif"]])
def test_a_missing_plug_in_is_one_line(variable: str, argv: list[str]) -> None:
    done = cli(*argv, env=clean_env(**{variable: "no_such_plugin"}), timeout=120)
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"{variable} names 'no_such_plugin'" in lines[0], done.stderr
