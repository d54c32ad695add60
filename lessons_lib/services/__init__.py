"""The services wing: one folder per MCP service the course ships (files, orders, notes); each is one
server definition, served over stdio or HTTP (lessons 02, 12, 30, 60).
"""
