"""The query service: MCP tools, HTTP health/metrics, readiness, and the CLI."""
