"""A course server's console over HTTP: the SDK's log, one short line per record (lessons 60-62).

``serve --http`` and the conformance check print what the MCP SDK logs, without tracebacks, and a
client that makes the SDK warn on every request cannot flood the console.
"""

from __future__ import annotations

import logging
import time


class _OneLine(logging.Formatter):
    """A log record as one line: its message and, if it carries one, the exception's message."""

    def format(self, record: logging.LogRecord) -> str:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text = f"{text}: {record.exc_info[1]}"
        return f"serve: {text}".splitlines()[0]


class _Throttle(logging.Filter):
    """At most ``burst`` records of one kind (the text before its first colon) per ``window`` seconds.

    A client can make the SDK log one warning per request (``Invalid Host header: ...``): a flood of
    such requests would flood the console. Past the burst, one line says the rest are suppressed.
    """

    def __init__(self, burst: int = 5, window: float = 60.0) -> None:
        super().__init__()
        self.burst, self.window = burst, window
        self._seen: dict[str, tuple[float, int]] = {}  # kind -> (window start, records in it)

    def filter(self, record: logging.LogRecord) -> bool:
        kind = record.getMessage().partition(":")[0][:80]
        now = time.monotonic()
        start, count = self._seen.get(kind, (now, 0))
        if now - start > self.window:
            start, count = now, 0
        if len(self._seen) > 256:  # kinds come from the SDK's messages; bounded all the same
            self._seen.clear()
        self._seen[kind] = (start, count + 1)
        if count == self.burst:
            record.msg, record.args = (
                f"{kind}: more lines like this suppressed for up to {self.window:.0f} s",
                (),
            )
        return count <= self.burst


def sdk_logs_one_line(level: int = logging.WARNING) -> None:
    """The SDK's log (logger ``mcp``) at ``level`` and above, one line per record on stderr, no traceback.

    ``MCPServer`` turns the SDK's INFO log on (a line per session, with its id) and the SDK logs a
    failing handler with its traceback (a client asking for a prompt that does not exist): on the
    console of ``serve --http`` each becomes one line; ``logging.CRITICAL`` silences all but the worst.
    Repeated lines of one kind are throttled (:class:`_Throttle`).
    """
    logger = logging.getLogger("mcp")
    logger.setLevel(level)
    logger.propagate = False
    if not any(isinstance(h.formatter, _OneLine) for h in logger.handlers):
        handler = logging.StreamHandler()
        handler.setFormatter(_OneLine())
        handler.addFilter(_Throttle())
        logger.addHandler(handler)
