"""Detectors the redactor and the leak scanner share: the lower layer both import.

The scanner (audit/) flags a value these detectors fire on; the redactor (redact/) asks the same
detectors first, about every name it would keep in clear (a path segment under `relative` or
`dirs_only`, a repo or host name, an identifier under a `keep` rule), and writes that class's
fallback instead (redact/apply/pathguard.py, redact/apply/identifiers.py). So the two agree by construction, and
the scanner still runs on the output, independently, as the proof.

Layering: modules here import nothing from `audit` and nothing from the redactor's transforms
(tests/test_boundaries.py). Nothing here transforms output data.

- `words`: the word lists (glue words, common long words);
- `language`: does a string read as natural-language text (the scanner's layer 4);
- `phrases`: the 3-word phrase shape the taint layer searches for;
- `emails`: e-mail addresses in every spelling (percent-encoded, NFKC, `(at)`);
- `secrets/`: the secrets layer (provider rules as data, detect-secrets plugins, context, entropy);
- `shapes`: home folders and command-line syntax, which no path or identifier may hold;
- `detectors`: all of the above as one question: which rule would fire on this value?
"""
