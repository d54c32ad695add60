"""MCP over the network, as lessons 60-62 show it: one call over stdio and HTTP, sessions, who may call.

``ENTRY`` declares it to the kernel: no command of its own (``conformance`` is the kernel's), no
public name; it serves every service the course ships.
"""

from __future__ import annotations

from lessons_lib.core.plugins.exampleregistry import ExampleEntry
from lessons_lib.services.files import ENTRY as FILES
from lessons_lib.services.notes import ENTRY as NOTES
from lessons_lib.services.orders import ENTRY as ORDERS

ENTRY = ExampleEntry(
    "network",
    "MCP over the network: one call over stdio and HTTP, sessions, who may call",
    "60-62",
    services=(FILES, NOTES, ORDERS),
)
