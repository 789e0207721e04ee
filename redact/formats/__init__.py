"""Raw agent-log formats: one folder per format (`<name>/`: its tables, reader and native scrubber)
and `registry.py`, the one list of them."""
