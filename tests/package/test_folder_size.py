"""Rooms a reader can take in: ``engine/`` and ``course/`` hold at most 20 modules each, and every
folder with more than 15 modules has subfolders by concept (the package's layout, README).
"""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "lessons_lib"
WINGS = {"engine": 20, "course": 20}
"""The two rooms that once held several stories each, and their ceiling."""
CROWDED = 15


def modules(folder: Path) -> list[str]:
    """The modules directly in ``folder`` (its ``__init__`` not counted)."""
    return sorted(p.name for p in folder.glob("*.py") if p.name != "__init__.py")


def subfolders(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if (p / "__init__.py").is_file())


def problems(package: Path = PACKAGE) -> list[str]:
    """Each folder over its ceiling, and each crowded folder without a subfolder, one line each."""
    found = [
        f"{name}/ holds {len(modules(package / name))} modules (at most {limit})"
        for name, limit in WINGS.items()
        if len(modules(package / name)) > limit
    ]
    for init in sorted(package.rglob("__init__.py")):
        folder = init.parent
        if len(modules(folder)) > CROWDED and not subfolders(folder):
            found.append(
                f"{folder.relative_to(package).as_posix()}/ holds {len(modules(folder))} modules in one room"
            )
    return found


def test_every_folder_is_a_room_a_reader_can_take_in() -> None:
    assert problems() == []


def test_a_crowded_folder_is_found(tmp_path: Path) -> None:
    package = tmp_path / "lessons_lib"
    for name in ("engine", "course", "views"):
        (package / name).mkdir(parents=True)
        (package / name / "__init__.py").write_text("", encoding="utf-8")
    for n in range(21):
        (package / "engine" / f"m{n}.py").write_text("", encoding="utf-8")
    for n in range(16):
        (package / "views" / f"m{n}.py").write_text("", encoding="utf-8")
    assert problems(package) == [
        "engine/ holds 21 modules (at most 20)",
        "engine/ holds 21 modules in one room",
        "views/ holds 16 modules in one room",
    ]
