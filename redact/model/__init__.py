"""The agentplay/v1 session map: its pydantic model, field classes and JSON Schema."""
