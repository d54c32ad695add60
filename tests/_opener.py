"""The two ways the file service opens a file, as a fixture (not collected by pytest).

``lessons_lib.services.files.opener`` walks descriptors where ``os.open`` has ``O_NOFOLLOW``,
``O_DIRECTORY`` and ``dir_fd``, and falls back to the checked open elsewhere (Windows). A test
that takes the ``opener`` fixture runs once per way: the fallback is forced by patching the
capability check, so Linux CI proves the Windows path keeps the same guarantee.
"""

from __future__ import annotations

import pytest

from lessons_lib.services.files import opener as openbeneath

OPENERS = ("descriptor-walk", "checked-open")


@pytest.fixture(params=OPENERS)
def opener(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Run the test with the descriptor walk, then with the checked open (the fallback)."""
    if request.param == "checked-open":
        monkeypatch.setattr(openbeneath, "beneath_supported", lambda: False)
    elif not openbeneath.beneath_supported():
        pytest.skip("os.open has no O_NOFOLLOW, O_DIRECTORY or dir_fd here: only the checked open runs")
    return str(request.param)
