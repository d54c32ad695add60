"""What the offline stand-ins share: rules, call builders, reply shapes (lessons 01-12). Stand-ins, not
models.
"""
