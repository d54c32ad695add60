"""A learner's loop sees the same file service graded alone (``kit.ToolService``) and in the
gradebook (``gradebook_worker.RemoteService``): no public name works in one and is missing in the
other, so a loop cannot pass alone and fail in a class folder (issue 39). The SDK's async session
is not one of them: a sync loop that called it would hang in both."""

from __future__ import annotations

from lessons_lib.workshop.gradebook.worker import RemoteService
from lessons_lib.workshop.loop.kit import workbench


def _public(names: list[str]) -> set[str]:
    return {name for name in names if not name.startswith("_")}


def test_the_service_a_loop_sees_is_the_same_alone_and_in_the_gradebook() -> None:
    with workbench() as bench:
        alone = _public(dir(bench.fs)) - {"bare_success"}  # the grader's setting, not the learner's
    in_gradebook = _public(dir(RemoteService)) | {"name"}  # ``name`` is set per instance
    assert alone == in_gradebook, alone ^ in_gradebook
    assert "session" not in alone
