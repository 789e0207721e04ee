"""Reading inputs safely and writing outputs atomically."""
