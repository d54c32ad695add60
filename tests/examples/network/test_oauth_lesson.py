"""Lesson 61's two runs as a notebook cell would call them: whole, on loopback, nothing secret in the result.

``who_may_call`` (the flow and five wrong tokens) and ``no_passthrough`` (the order desk calling
the order API with a token of its own). Run once from inside a running event loop, as in Jupyter.
"""

from __future__ import annotations

import asyncio
import re

import pytest

from lessons_lib.examples.network.whomaycall import WRONG_TOKENS, WhoMayCall, who_may_call
from lessons_lib.examples.openapi.protected import Passthrough, no_passthrough


@pytest.fixture(scope="module")
def run() -> WhoMayCall:
    async def in_a_running_loop() -> WhoMayCall:
        return who_may_call()

    return asyncio.run(in_a_running_loop())


def test_the_flow_reaches_the_tool_after_one_consent(run: WhoMayCall) -> None:
    assert run.answer.startswith("01 ") and run.consents == 1
    assert run.sequence[:3] == [
        "file service: POST /mcp -> 401",
        "file service: GET /.well-known/oauth-protected-resource/mcp -> 200",
        "authorization server: GET /.well-known/oauth-authorization-server -> 200",
    ]
    assert (
        "resource=<file service>/mcp" in run.sequence[4]
        and run.sequence[7] == "file service: POST /mcp -> 200"
    )


def test_each_wrong_token_is_refused_with_its_reason(run: WhoMayCall) -> None:
    table = {r.case: (r.status, r.reason) for r in run.refusals}
    assert list(table) == list(WRONG_TOKENS)
    assert table == {
        "for the other service": (401, "token issued for another service (audience)"),
        "expired": (401, "token expired"),
        "another issuer": (401, "token issued by another authorization server"),
        "forged signature": (401, "token signature does not verify"),
        "scope missing": (403, "Required scope: files:read"),
    }


@pytest.fixture(scope="module")
def passthrough() -> Passthrough:
    return no_passthrough()


def test_the_desk_uses_its_own_token_and_the_forwarded_one_is_refused(passthrough: Passthrough) -> None:
    assert '"order_id": "O-1042"' in passthrough.answer
    assert passthrough.downstream == [
        "order API: GET /orders/O-1042 -> 401",
        "order API: GET /.well-known/oauth-protected-resource -> 200",
        "authorization server: GET /.well-known/oauth-authorization-server -> 200",
        "authorization server: POST /token -> 200",
        "order API: GET /orders/O-1042 -> 200",
    ]
    assert (passthrough.passed_status, passthrough.passed_reason) == (
        401,
        "token issued for another service (audience)",
    )


def test_a_stored_output_would_hold_no_token_port_or_code(run: WhoMayCall, passthrough: Passthrough) -> None:
    shown = repr(run) + repr(passthrough)
    assert "eyJ" not in shown and "Bearer" not in shown and "127.0.0.1" not in shown
    assert not re.search(r"\b(code|state|client_id)=[^…]", shown)
