"""The transport: the MCP server, the HTTP app and its admission, the tool catalogue, its gate and
the call guard.
"""
