"""The declarative tables both the redactor and the leak scanner read, and nothing that transforms:
the node vocabulary of a format's one table (`spec.py`), the value grammars of native output
(`grammar.py`), the tool-input specs the formats share (`tools.py`), their rendering for the docs
(`doc.py`) and which input names a report may show (`names.py`, against the closed list of names the
tables produce)."""
