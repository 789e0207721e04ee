"""The format-independent map builder: facts from any reader -> an agentplay/v1 map."""
from redact.build.builder import EVENT_CAP, build_map

__all__ = ["EVENT_CAP", "build_map"]
