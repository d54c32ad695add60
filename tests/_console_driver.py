"""Run every README command in one process, each on fresh strict stdout/stderr (not collected).

``python tests/_console_driver.py OUT.json ARGV_JSON...`` is started by ``test_platform_console``
with ``PYTHONIOENCODING`` set to a console's encoding. For each command it gives
``lessons_lib.cli.main`` a new stdout and stderr exactly as a fresh interpreter would open them
when output is redirected (that encoding, ``errors="strict"`` on stdout, ``backslashreplace`` on
stderr, as CPython does), an empty stdin, and records the exit code, the bytes written and any
exception. One process for all commands keeps the test fast (the SDKs load once); the test
also runs one command as a real redirected subprocess and checks it gives the same bytes.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
import traceback


def run_one(argv: list[str], env: dict[str, str]) -> dict[str, object]:
    encoding = os.environ.get("PYTHONIOENCODING", "utf-8").split(":")[0]
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding=encoding, errors="strict", write_through=True)
    stderr = io.TextIOWrapper(err, encoding=encoding, errors="backslashreplace", write_through=True)
    stdin = io.TextIOWrapper(io.BytesIO(b""), encoding="utf-8")
    saved = sys.stdin, sys.stdout, sys.stderr
    old_env = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    sys.stdin, sys.stdout, sys.stderr = stdin, stdout, stderr
    crash = ""
    try:
        from lessons_lib.cli import main

        code: object = main(argv)
    except SystemExit as stop:  # argparse exits
        code = stop.code
    except BaseException:  # noqa: BLE001  (recorded: the test fails on it)
        code, crash = None, traceback.format_exc()
    finally:
        with contextlib.suppress(Exception):
            stdout.flush()
            stderr.flush()
        sys.stdin, sys.stdout, sys.stderr = saved
        for key, value in old_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    return {
        "code": code,
        "stdout": out.getvalue().decode(encoding),
        "stderr": err.getvalue().decode(encoding),
        "crash": crash,
    }


def main() -> None:
    target, commands = sys.argv[1], json.loads(sys.argv[2])
    import anthropic  # noqa: F401  (load the SDKs first, so no command's run-time limit pays for it)
    import mcp  # noqa: F401
    import openai  # noqa: F401

    results = {name: run_one(spec["argv"], spec["env"]) for name, spec in commands.items()}
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(results, handle, ensure_ascii=False)


if __name__ == "__main__":
    main()
