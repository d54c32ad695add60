"""The OpenAPI example: the order HTTP API, generated tools, the router, three ways (lessons 40-41)."""
