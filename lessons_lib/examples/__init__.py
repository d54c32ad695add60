"""Examples as plug-ins: one folder per example (files, orders, openapi, mcp)."""
