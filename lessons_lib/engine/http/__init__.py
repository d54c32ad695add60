"""MCP over Streamable HTTP: serve, connect, authorize, and the conformance suite (lessons 60-62)."""
