"""Shipped policy presets and allowlists (TOML files in this package)."""
