"""What the lessons draw: field trees, tables, sequence views and diagrams (lesson 03 on)."""
