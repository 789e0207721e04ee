"""Sweep: the secrets already sitting in agents' logs (DESIGN.md section 16).

`targets.sweep_inputs` names the files; `find` searches one file's text (JSON strings decoded) and
`store` a SQLite store's cells, both with the secrets layer (redact/contract/secrets/); `engine`
runs them over every file, groups the places by keyed fingerprint and, for a scrub, rewrites the
files with the originals sealed first (`vault`) and proves the result; `render` writes the report
(terminal table, JSON, SARIF 2.1.0, HTML); `hooks` installs the scrub as an agent's session-end
hook. No value found is ever printed, logged or sent: places carry a class, a keyed fingerprint, a
line and a length.
"""
