"""The ``english`` fixture: a test body runs under ``set_language("en")``, reset afterwards (issue 28).

Import it into a test module (``from _english import english``) and take it as an argument.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lessons_lib.core.messages import set_language


@pytest.fixture
def english() -> Iterator[None]:
    """English for one test; back to detection (Chinese in the tests) afterwards, even on failure."""
    set_language("en")
    try:
        yield
    finally:
        set_language(None)
