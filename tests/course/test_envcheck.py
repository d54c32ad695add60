"""Lesson 00's environment check: stable output on a good install, a clear ✗ row on a bad one."""

from __future__ import annotations

import tomllib
from importlib import metadata
from pathlib import Path

import pytest

from lessons_lib.course import envcheck
from lessons_lib.course.envcheck import REQUIREMENTS, environment_check, in_range

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(autouse=True)
def offline(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("OPENAI_API_KEY", "OPENAI_BASE_URL", "LESSONS_MODEL"):
        monkeypatch.delenv(name, raising=False)


def _notes_lines() -> int:
    return len((REPO / "data" / "workspace" / "notes.txt").read_text(encoding="utf-8").splitlines())


def test_good_install_reads_as_expected() -> None:
    from lessons_lib.engine.models import enable_live_hint

    report = environment_check()
    text = report._repr_mimebundle_()["text/plain"]
    assert report.ok, text
    lines = text.splitlines()
    assert lines[1] == "✓ Python：>=3.11"
    assert "✓ mcp：>=2.3,<3" in lines and "✓ openai：>=3.51,<4" in lines
    assert f"✓ 模型：{enable_live_hint()}" in lines
    assert f"✓ 数据：data/workspace/notes.txt：{_notes_lines()} 行" in lines
    assert lines[-1] == "结论：环境可用，可以按顺序学习。"
    assert str(report) == text and repr(report) == f"EnvReport(ok=True, rows={len(report.rows)})"


def test_output_is_deterministic_and_has_no_machine_path() -> None:
    a, b = environment_check()._repr_mimebundle_(), environment_check()._repr_mimebundle_()
    assert a == b
    for shown in a.values():
        assert str(REPO) not in shown and "/home/" not in shown and " at 0x" not in shown


def test_patch_upgrades_do_not_change_the_output(monkeypatch: pytest.MonkeyPatch) -> None:
    real = metadata.version
    before = environment_check().text()
    monkeypatch.setattr(
        metadata, "version", lambda name: real(name) + ".post7" if name == "mcp" else real(name)
    )
    assert environment_check().text() == before
    monkeypatch.setattr(metadata, "version", lambda name: "2.99.1" if name == "mcp" else real(name))
    assert environment_check().text() == before


def test_requirements_match_pyproject() -> None:
    deps = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["dependencies"]
    declared = {d.split(">")[0].split("=")[0].split("<")[0].strip(): d for d in deps}
    for name, low, high in REQUIREMENTS:
        spec = declared[name].replace(" ", "")
        lo = ".".join(map(str, low))
        hi = ".".join(map(str, high))
        assert spec == f"{name}>={lo},<{hi}", (name, spec)
    python = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"][
        "requires-python"
    ]
    assert python == ">=" + ".".join(map(str, envcheck.PYTHON_MIN))


@pytest.mark.parametrize(
    ("version", "low", "high", "ok"),
    [
        ("2.3.0", (2, 3), (3,), True),
        ("2.2.9", (2, 3), (3,), False),
        ("3.0.0", (2, 3), (3,), False),
        ("3.0.0rc1", (2, 3), (3,), False),
        ("2.10", (2, 3), (3,), True),
        ("0.21", (0, 20), (1,), True),
        ("dev", (0, 20), (1,), False),
    ],
)
def test_in_range(version: str, low: tuple[int, ...], high: tuple[int, ...], ok: bool) -> None:
    assert in_range(version, low, high) is ok


def test_missing_or_wrong_package_says_what_to_do(monkeypatch: pytest.MonkeyPatch) -> None:
    real = metadata.version

    def fake(name: str) -> str:
        if name == "mcp":
            raise metadata.PackageNotFoundError(name)
        return "1.5.0" if name == "openai" else real(name)

    monkeypatch.setattr(metadata, "version", fake)
    report = environment_check()
    text = report.text()
    assert not report.ok
    assert "✗ mcp：没有安装（需要 >=2.3,<3）：在仓库根目录运行 pip install -e . 后重启内核" in text
    assert "✗ openai：找到 1.5.0，需要 >=3.51,<4" in text
    assert text.splitlines()[-1] == "结论：mcp、openai 需要处理（见标 ✗ 的行）。"


def test_old_python_row() -> None:
    row = envcheck._python_row((3, 10))
    assert not row.ok and "找到 3.10" in row.detail


def test_missing_data_and_renderer(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from lessons_lib.core import paths
    from lessons_lib.views.dot import install_hint

    monkeypatch.setattr(paths, "WORKSPACE_DIR", tmp_path)
    monkeypatch.setenv("LESSONS_DOT", "none")
    report = environment_check()
    text = report.text()
    assert f"✗ 图形渲染：{install_hint()}" in text
    assert "✗ 数据：没有找到 data/workspace/notes.txt" in text and "LESSONS_DATA_DIR" in text
    (tmp_path / "notes.txt").write_text("only\ntwo\n", encoding="utf-8")
    assert "✗ 数据：data/workspace/notes.txt：2 行，示例至少需要 21 行" in environment_check().text()


def test_live_mode_line_never_shows_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-envcheck-secret-0123456789")
    text = environment_check().text()
    assert "已检测到 OPENAI_API_KEY" in text and "sk-envcheck" not in text


def test_html_is_a_table_with_escaped_text(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from lessons_lib.core import paths

    weird = tmp_path / "<b>"
    weird.mkdir()
    monkeypatch.setattr(paths, "WORKSPACE_DIR", weird)
    page = environment_check()._repr_mimebundle_()["text/html"]
    assert page.startswith('<table class="lessons-envcheck"')
    assert "<b>" not in page and "&lt;b&gt;" in page
