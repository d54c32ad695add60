"""MCP over the network, as lessons 60-61 show it: one call over stdio and HTTP, sessions, who may call."""
