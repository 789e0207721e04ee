"""Pure detectors both sides use: the redactor (to replace a value it would keep) and the scanner (to
prove the output). Nothing here transforms output data; see DESIGN.md section 3."""
