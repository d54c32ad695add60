"""The order desk service: SQLite data, business rules, tools, the MCP server and its offline stand-in
(lessons 30-33, 40, 50).
"""
