"""SDK pieces for grading a learner's code in another process than the one that judges it.

Introduced with the gradebook (lesson 11's grader over a folder). The gradebook keeps the
stand-in model and the file service in its own (trusted) process, where their traffic is
recorded, and runs the learner's functions in a grading process. Across the pipe only JSON
travels; this module is the SDK side of that:

- :func:`sdk_dump` / :func:`sdk_load`: an ``openai`` or ``mcp_types`` object as
  ``(type name, JSON)`` and back (``model_validate``), for the SDK objects a checker hands to a
  learner's function and those the function returns;
- :func:`remote_model`: in the grading process, a real ``openai.OpenAI`` client whose HTTP
  requests are handed to ``forward`` (the pipe to the trusted process) instead of a network;
- :func:`serve_model_request`: in the trusted process, one such request answered by the
  workbench's own client (the stand-in, recorded in its trace).
"""

from __future__ import annotations

import importlib
import json
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Final

import httpx2

from lessons_lib.core.jsonvalue import JSON
from lessons_lib.engine.redact import OFFLINE_KEY

if TYPE_CHECKING:
    from openai import OpenAI

SDK_MODULES: Final = re.compile(r"(openai\.types(\.\w+)*|mcp_types(\.\w+)*):\w+(\.\w+)*\Z")
"""The SDK types a value may be rebuilt as: the model API's and MCP's own data types only."""
BASE_URL: Final = "http://stand-in.invalid/v1"  # never resolved: the transport below has no network
METHODS: Final = ("GET", "POST", "DELETE")

Forward = Callable[[str, str, JSON], tuple[int, str]]
"""(method, path, JSON body) -> (HTTP status, response text): the pipe to the trusted process."""


def sdk_dump(value: object) -> tuple[str, JSON] | None:
    """``(module:QualName, JSON)`` for an SDK data object, None for anything else."""
    from pydantic import BaseModel

    if not isinstance(value, BaseModel):
        return None
    cls = type(value)
    name = f"{cls.__module__}:{cls.__qualname__}"
    if not SDK_MODULES.match(name):
        return None
    data = value.model_dump(mode="json", by_alias=True, exclude_unset=True)
    return name, data


def sdk_load(name: str, data: JSON) -> object:
    """The SDK object of that type rebuilt from its JSON (``ValueError`` if it is not one)."""
    from pydantic import BaseModel, ValidationError

    if not isinstance(name, str) or not SDK_MODULES.match(name):
        raise ValueError(f"not an SDK type: {name!r}")
    module, _, qualname = name.partition(":")
    found: object = importlib.import_module(module)
    for part in qualname.split("."):
        found = getattr(found, part, None)
    if not (isinstance(found, type) and issubclass(found, BaseModel)):
        raise ValueError(f"not an SDK type: {name!r}")
    try:
        return found.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"{name}: {exc.errors()[0]['msg']}") from None


class _PipeTransport(httpx2.BaseTransport):
    """Hands each request to ``forward`` and makes its answer an HTTP response."""

    def __init__(self, forward: Forward) -> None:
        self._forward = forward

    def handle_request(self, request: httpx2.Request) -> httpx2.Response:
        content = request.read()
        try:
            body: JSON = json.loads(content) if content else None
        except ValueError:
            body = content.decode("utf-8", "replace")
        path = request.url.path.removeprefix("/v1")
        status, text = self._forward(request.method, path, body)
        headers = {"content-type": "application/json"}
        return httpx2.Response(status, headers=headers, content=text.encode("utf-8"), request=request)


def remote_model(forward: Forward) -> OpenAI:
    """A real OpenAI client whose requests go to ``forward`` (no network, no key of anyone's)."""
    from openai import OpenAI

    client = httpx2.Client(transport=_PipeTransport(forward), timeout=30)
    return OpenAI(api_key=OFFLINE_KEY, base_url=BASE_URL, max_retries=0, http_client=client)


def serve_model_request(model: OpenAI, method: str, path: str, body: JSON) -> tuple[int, str]:
    """Answer one forwarded request with ``model`` (the workbench's client): (status, text)."""
    from openai import APIStatusError

    if method not in METHODS or not isinstance(path, str) or not re.fullmatch(r"(/[\w.-]+)+", path):
        return 400, json.dumps(
            {"error": {"message": f"unsupported request {method} {path}", "type": "invalid"}}
        )
    options = {} if body is None else {"body": body}
    try:
        call = {"GET": model.get, "POST": model.post, "DELETE": model.delete}[method]
        response = call(path, cast_to=httpx2.Response, **options)  # type: ignore[operator]
    except APIStatusError as exc:
        response = exc.response
    return response.status_code, response.text
