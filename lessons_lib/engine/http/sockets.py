"""The listening socket of a course server over HTTP, bound the same on every platform (lessons 60-62).

Port 0 lets the system pick a free port; ``SO_EXCLUSIVEADDRUSE`` on Windows, where ``SO_REUSEADDR``
would let another process take the port; ``SO_REUSEADDR`` elsewhere, so a restart does not wait for
TIME_WAIT.
"""

from __future__ import annotations

import os
import socket


def socket_options(system: str = os.name) -> list[tuple[int, int]]:
    """The (level, option) pairs set to 1 before binding: exclusive on Windows, reuse elsewhere.

    On Windows ``SO_REUSEADDR`` lets a second process bind a port already in use (and steal its
    connections); ``SO_EXCLUSIVEADDRUSE`` (``-5``, ``~SO_REUSEADDR``) forbids that. Elsewhere
    ``SO_REUSEADDR`` only lets a restarted server bind while old connections sit in TIME_WAIT.
    """
    if system == "nt":
        return [(socket.SOL_SOCKET, getattr(socket, "SO_EXCLUSIVEADDRUSE", -5))]
    return [(socket.SOL_SOCKET, socket.SO_REUSEADDR)]


def bind(host: str, port: int) -> socket.socket:
    """A listening TCP socket on ``host:port`` (port 0: a free one); ``OSError`` when it cannot be had."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        for level, option in socket_options():
            sock.setsockopt(level, option, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def origin_of(sock: socket.socket) -> str:
    """``http://HOST:PORT`` of a bound socket."""
    host, port = sock.getsockname()[:2]
    shown = f"[{host}]" if ":" in host else host
    return f"http://{shown}:{port}"
