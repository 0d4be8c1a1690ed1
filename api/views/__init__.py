"""The HTTP endpoints, one blueprint per group."""
