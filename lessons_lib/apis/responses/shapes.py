"""Whether a model body has the Responses shape (``checks.apiview.api_of_body``). Lesson 20.

The kernel finds this through the API registry's ``shape`` entry; the entries are tried in the
registry's order, so this test is asked first. Standard library only.
"""

from __future__ import annotations

from lessons_lib.core.jsonvalue import JSONObject


def is_body(body: JSONObject) -> bool:
    """A Responses request (it has ``input``) or response (``object: "response"``)."""
    return "input" in body or body.get("object") == "response"
