"""Examples as plug-ins: one folder per example (files, orders, openapi, mcp, evolve, network).

The files example is lesson 09's (what-if) and the command line's; orders is lessons 30-33's,
openapi and mcp lessons 40-44's, evolve lessons 50-52's and network lessons 60-69's.
"""
