"""Readers of raw agent logs, one module per format (each with its field table)."""
