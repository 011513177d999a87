"""The memory and claim tools, the shared entry view, and memory in search answers."""
