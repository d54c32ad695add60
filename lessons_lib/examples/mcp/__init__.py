"""The MCP structure example: tools, resources, prompts, structured output, revisions (lessons 42-44)."""
