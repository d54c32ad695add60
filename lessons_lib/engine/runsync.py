"""Run a coroutine function to the end from plain code or from a notebook cell (every sync entry point).
Every lesson that runs the loop in a cell (from lesson 01 on) goes through it.

Jupyter already runs an event loop in the kernel's thread, so there the coroutine runs in a
worker thread with its own loop; elsewhere ``anyio.run`` is enough.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

import anyio

T = TypeVar("T")


def run_sync(func: Callable[[], Awaitable[T]]) -> T:
    """``func()`` awaited to its result, whether or not an event loop is running here."""
    try:
        import asyncio

        asyncio.get_running_loop()
    except RuntimeError:
        return anyio.run(func)
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(anyio.run, func).result()
