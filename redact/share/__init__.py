"""What comes after a map exists: signed receipts (`receipt.py`), `explain`, the rule behind each
field of an output (`explain.py`), and `reveal`, the owner's names put back from the vault
(`reveal.py`)."""
