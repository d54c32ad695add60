"""Tools that change, catalogues of many tools, tool output that gives orders (lessons 50-52)."""
