"""A class on a real JupyterHub: three learners run lessons 03 and 09 at once, each in their own server.

JupyterHub (PyPI) with configurable-http-proxy (npm, installed by ``.ci/run``; locally
``npm install --prefix /tmp/chp configurable-http-proxy``) on 127.0.0.1 with random ports,
``SimpleLocalProcessSpawner`` and the dummy authenticator; the harness is
``benchmarks/hubkit.py``. Every learner is created and started through the hub's REST API and
runs both lessons through the hub's proxy (Jupyter server REST + kernel websocket). Outputs are
compared with the stored ones as strict nbval does. One learner, ``ada``, changes ``head`` to 5
in lesson 03: her outputs show 5, the others' still equal the stored ``head=20`` outputs.
At the end every process the hub started (servers, kernels, proxy, hub) is gone.
Skips without jupyterhub or the proxy, except under ``CI=true``, where it fails.

Three fast tests check the README's hand-out for a hub: the nbgitpuller link, the
repo2docker image command (run with ``--no-build``) and the Zero to JupyterHub ``config.yaml``.
"""

from __future__ import annotations

import asyncio
import copy
import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import nbformat
import pytest
from conftest import REPO_ROOT, skip_or_fail

LESSONS = ("03_minimal_walkthrough.ipynb", "09_what_if.ipynb")
LEARNERS = ["ada", "bo", "cy"]
CHANGED = "ada"  # runs lesson 03 with head=5
DEADLINE = 240  # seconds for the learners' runs, on a busy 2-core machine
PROBE = 'import os\nos.environ["JUPYTERHUB_USER"], os.getppid()'

# ada's lesson 03 after `trace = run_chain(head=5)`: checked by hand against a run of the chain
HEAD_5_OUTPUTS = {
    11: '(\'fs__read_text_file\', \'{"path": "/workspace/notes.txt", "head": 5}\')',
    15: "('str', 'dict', '/workspace/notes.txt', 5)",
    21: "(False, 5, '01 项目笔记：文件读取工具接入（每行开头是行号）')",
}


# nbval's own rule for what it compares (nbval.plugin.IPyNbFile.skip_compare, without nbdime)
SKIP_COMPARE = {
    "metadata", "traceback", "prompt_number", "output_type", "name", "execution_count",
    "application/vnd.jupyter.widget-view+json", "image/png", "image/jpeg",
}  # fmt: skip


def _flatten(outputs: list[Any]) -> dict[str, list[Any]]:
    """nbval's comparison form: one list of values per output key and MIME type."""
    from nbval.plugin import coalesce_streams, transform_streams_for_comparison

    flat: dict[str, list[Any]] = {}
    merged = coalesce_streams(copy.deepcopy(outputs))  # it merges streams in place
    for output in transform_streams_for_comparison(merged):
        for key, value in output.items():
            if key in SKIP_COMPARE:
                continue
            pairs = value.items() if key == "data" else [(key, value)]
            for name, item in pairs:
                if name not in SKIP_COMPARE:
                    flat.setdefault(name, []).append(item)
    return flat


def differences(stored: Any, runs: list[Any]) -> list[str]:
    """Cells whose fresh outputs differ from the stored ones, compared the way strict nbval does.

    Cells marked ``# NBVAL_IGNORE_OUTPUT`` (or tagged ``nbval-ignore-output``) are run, not
    compared; ``NBVAL_SKIP`` cells must not be in a lesson that this harness runs.
    """
    from nbval.plugin import find_comment_markers, find_metadata_tags

    found, by_index = [], {run.index: run for run in runs}
    for index, cell in enumerate(stored.cells):
        if cell.cell_type != "code":
            continue
        run = by_index.get(index)
        if run is None:
            found.append(f"cell {index}: not run")
            continue
        if run.status != "ok":
            found.append(f"cell {index}: {run.status}")
            continue
        options = dict(find_comment_markers(cell.source)) | dict(find_metadata_tags(cell.metadata))
        if options.get("check", True) and _flatten(run.outputs) != _flatten(cell.outputs):
            found.append(f"cell {index}: outputs differ from the stored ones")
    return found


def _hubkit() -> ModuleType:
    path = REPO_ROOT / "benchmarks" / "hubkit.py"
    spec = importlib.util.spec_from_file_location("lessons_hubkit", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look the module up while the class is built
    spec.loader.exec_module(module)
    return module


def _lesson(name: str, learner: str) -> tuple[Any, Any]:
    """(the stored notebook, the copy this learner runs: ada's head=5 edit, the probe cell)."""
    stored = nbformat.read(REPO_ROOT / "notebooks" / name, as_version=4)
    mine = copy.deepcopy(stored)
    if learner == CHANGED and name.startswith("03"):
        (cell,) = [
            c for c in mine.cells if c.cell_type == "code" and c.source.startswith("trace = run_chain()")
        ]
        cell.source = cell.source.replace("run_chain()", "run_chain(head=5)")
    mine.cells.append(nbformat.v4.new_code_cell(PROBE))
    return stored, mine


def _text(run: Any) -> str:
    return "".join(out.get("data", {}).get("text/plain", "") for out in run.outputs)


def test_three_learners_run_two_lessons_each_in_their_own_server(tmp_path: Path) -> None:
    if importlib.util.find_spec("jupyterhub") is None:
        skip_or_fail("jupyterhub is not installed (pip install -e '.[test]')")
    if importlib.util.find_spec("psutil") is None:
        skip_or_fail("psutil is not installed (pip install -e '.[test]')")
    kit = _hubkit()
    proxy = kit.find_proxy()
    if proxy is None:
        skip_or_fail(
            "configurable-http-proxy not found: npm install --prefix /tmp/chp configurable-http-proxy "
            f"(or set {kit.PROXY_ENV})"
        )

    async def one_learner(hub: Any, learner: Any) -> dict[str, tuple[Any, list[Any]]]:
        done = {}
        for name in LESSONS:
            stored, mine = _lesson(name, learner.name)
            runs, _ = await kit.run_notebook(hub.server_url(learner.name), learner.token, mine)
            done[name] = (stored, runs)
        return done

    async def the_class(hub: Any) -> tuple[list[Any], list[dict[str, Any]], int]:
        learners = await hub.add_learners(LEARNERS)
        results = await asyncio.gather(*(one_learner(hub, learner) for learner in learners))
        # a learner's own token opens her server and no one else's
        from tornado.httpclient import AsyncHTTPClient, HTTPRequest

        foreign = await AsyncHTTPClient().fetch(
            HTTPRequest(
                f"{hub.server_url('bo')}/api/status",
                headers={"Authorization": f"token {learners[0].token}"},
                follow_redirects=False,
            ),
            raise_error=False,
        )
        return learners, list(results), foreign.code

    with kit.Hub(tmp_path / "hub", proxy) as hub:
        try:
            learners, results, foreign_code = asyncio.run(asyncio.wait_for(the_class(hub), DEADLINE))
        except Exception as exc:
            pytest.fail(f"the class did not run: {exc!r}\nhub log:\n{hub.log_tail()}")
    assert not hub.alive(), f"processes left running after the hub stopped: {hub.alive()}"

    assert foreign_code in (302, 403), f"ada's token on bo's server answered {foreign_code}"
    for learner, done in zip(learners, results, strict=True):
        for name, (stored, runs) in done.items():
            probe = runs[-1]
            assert _text(probe) == repr((learner.name, learner.server_pid)), (
                f"{name} of {learner.name} ran in another kernel or server: {_text(probe)}"
            )
            found = differences(stored, runs[:-1])
            if learner.name == CHANGED and name.startswith("03"):
                by_index = {run.index: run for run in runs}
                for index, expected in HEAD_5_OUTPUTS.items():
                    assert _text(by_index[index]) == expected, (index, _text(by_index[index]))
                assert {f"cell {i}: outputs differ from the stored ones" for i in HEAD_5_OUTPUTS} <= set(
                    found
                )
            else:
                assert found == [], f"{learner.name}, {name}: {found}"


# --------------------------------------------------------------------------- the README's hand-out


def _readme_block(marker: str) -> str:
    """The fenced block right after ``<!-- marker -->`` in README.md."""
    text = (REPO_ROOT / "README.md").read_text(encoding="utf-8")
    after = text.split(f"<!-- {marker} -->", 1)[1]
    return after.split("```", 2)[1].split("\n", 1)[1].strip()


def test_the_nbgitpuller_link_opens_lesson_00_of_this_repository() -> None:
    from urllib.parse import parse_qs, urlsplit

    link = urlsplit(_readme_block("nbgitpuller-link"))
    assert link.scheme == "https" and link.path == "/hub/user-redirect/git-pull", link
    query = {key: values[0] for key, values in parse_qs(link.query, strict_parsing=True).items()}
    assert set(query) == {"repo", "branch", "urlpath"}, query
    repo = urlsplit(query["repo"])
    assert repo.netloc == "github.com" and len(repo.path.strip("/").split("/")) == 2, query["repo"]
    clone = repo.path.rsplit("/", 1)[1]  # nbgitpuller clones into a folder named after the repository
    prefix = f"lab/tree/{clone}/"
    assert query["urlpath"].startswith(prefix), query["urlpath"]
    assert (REPO_ROOT / query["urlpath"].removeprefix(prefix)).is_file(), query["urlpath"]
    assert query["urlpath"].endswith("notebooks/00_start_here.ipynb")


def test_the_hub_image_is_planned_from_binder_with_nbgitpuller() -> None:
    import shlex
    import subprocess

    if importlib.util.find_spec("repo2docker") is None:
        skip_or_fail("jupyter-repo2docker is not installed (pip install -e '.[test]')")
    words = shlex.split(_readme_block("hub-image-command"))
    assert words[0] == "jupyter-repo2docker" and words[-1].startswith("https://github.com/"), words
    # the same options on this checkout, without Docker: repo2docker prints the Dockerfile it would build
    command = [sys.executable, "-m", "repo2docker", "--no-build", *words[1:-1], str(REPO_ROOT)]
    proc = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    plan = proc.stdout + proc.stderr
    requirements = plan.find('pip install --no-cache-dir -r "binder/requirements.txt"')
    puller = plan.find("pip install --no-cache-dir nbgitpuller")
    assert 0 <= requirements < puller, plan[-2000:]


def test_the_hub_config_uses_that_image() -> None:
    import shlex

    import yaml

    config = yaml.safe_load(_readme_block("hub-config"))
    words = shlex.split(_readme_block("hub-image-command"))
    image = words[words.index("--image-name") + 1]
    single = config["singleuser"]
    assert f"{single['image']['name']}:{single['image']['tag']}" == image
    assert single["defaultUrl"] == "/lab"
    assert words[words.index("--user-id") + 1] == "1000"  # the chart's default singleuser uid


def test_the_sizing_lines_follow_from_the_figures(capsys: pytest.CaptureFixture[str]) -> None:
    """The benchmark's extrapolation, on round figures worked out by hand."""
    sys.path.insert(0, str(REPO_ROOT / "benchmarks"))
    try:
        spec = importlib.util.spec_from_file_location(
            "lessons_hub_bench", REPO_ROOT / "benchmarks" / "hub.py"
        )
        assert spec is not None and spec.loader is not None
        bench = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = bench
        spec.loader.exec_module(bench)
    finally:
        sys.path.remove(str(REPO_ROOT / "benchmarks"))
    mib = 2**20
    bench.sizing({"pss": 256 * mib, "idle": 128 * mib, "rss": 300 * mib, "cpu": 4.0, "base": 200 * mib}, 8)
    out = capsys.readouterr().out
    # 30 learners: 200 MiB + 30 x 256 MiB = 7880 MiB = 7.7 GiB; + 30 x 128 MiB = 11.4 GiB;
    # Run All of everyone within 10 s: 30 x 4 / 10 = 12 cores; one lesson each per 5 min: 0.4
    assert "class of 30: memory 7.7 GiB with one lesson open each" in out, out
    assert "11.4 GiB with two; cores 12 when" in out and "10 s, 0.4 at one lesson" in out, out
    # 300: 77000 MiB = 75.2 GiB, 115400 MiB = 112.7 GiB, 120 cores, 4.0
    assert "class of 300: memory 75.2 GiB" in out and "112.7 GiB with two; cores 120" in out, out
    assert "10 s, 4.0 at one lesson" in out and "one more kernel, 128 MiB PSS" in out, out
