"""The services wing: one folder per MCP service the course ships (files, orders, notes).

Each is one server definition, declared by the ``ENTRY`` of its ``__init__``
(:mod:`lessons_lib.core.plugins.serviceregistry`) and served over stdio or HTTP (lessons 02, 12, 30, 60).
"""
