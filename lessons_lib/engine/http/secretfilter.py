"""What keeps OAuth secrets out of the logs: a logging filter on every logger that can see one (lesson 61).

Access and refresh tokens, authorization codes, PKCE verifiers and client secrets stay in memory: no log
record, hop, error message or printed line of the OAuth modules carries one
(``tests/examples/network/test_oauth_canary.py``).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from typing import Final

_SECRET_PATTERNS: Final = (
    (re.compile(r"eyJ[\w-]*\.[\w-]*\.[\w-]*"), "<jwt>"),
    (re.compile(r"(?i)\b(bearer|basic) +[\w.~+/=-]+"), r"\1 …"),
    (
        re.compile(r"\b(code|code_verifier|refresh_token|access_token|client_secret|state)=[^&\s'\"]+"),
        r"\1=…",
    ),
    (
        re.compile(r'"(access_token|refresh_token|client_secret|code|code_verifier)" *: *"[^"]*"'),
        r'"\1": "…"',
    ),
)
LOG_SOURCES: Final = (
    "httpcore2.http11",
    "httpcore2.http2",
    "httpcore2.connection",
    "httpcore2.proxy",
    "httpcore2.socks",
    "httpx2",
    "mcp.client.auth.oauth2",
    "mcp.client.streamable_http",
    "mcp.server.auth.middleware.bearer_auth",
    "uvicorn.access",
    "uvicorn.error",
)
"""Loggers that can see a credential in flight. At DEBUG, ``httpcore2`` logs every response's
headers, so the ``Location`` of the consent redirect would carry the authorization code into
the log; :class:`SecretFilter` is put on each of them."""


def redact_secrets(text: str) -> str:
    """``text`` with JWTs, bearer/basic credentials, and code/token/secret values elided."""
    for pattern, replacement in _SECRET_PATTERNS:
        text = pattern.sub(replacement, text)
    return text


class SecretFilter(logging.Filter):
    """A logging filter that rewrites a record's message with :func:`redact_secrets` (never drops it)."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        clean = redact_secrets(message)
        if clean != message:
            record.msg, record.args = clean, ()
        return True


_FILTER: Final = SecretFilter()


def redact_logs(names: Iterable[str] = LOG_SOURCES) -> None:
    """Put the secret filter on each logger named (idempotent); a filter on a logger only sees
    what that logger itself logs, so each source is named."""
    for name in names:
        source = logging.getLogger(name)
        if _FILTER not in source.filters:
            source.addFilter(_FILTER)
