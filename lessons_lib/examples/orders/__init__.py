"""The order desk example: SQLite data, MCP service, guardrails, stand-in, lab, commands (lessons 30-33)."""
