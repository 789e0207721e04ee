"""An independent check that a file would load in Kiro CLI (`/chat load`, or the store's resume),
written from the session layout as public readers of Kiro's files describe it (the types of each
field), sharing no code with the reader, the scrubber or the native table:

- a log entry is `{version: "v1", kind, data}`; `data` has `message_id` (a string) and, for a
  `Prompt`, `AssistantMessage` or `ToolResults`, `content` (a list of blocks) and optionally
  `meta: {timestamp: number}`;
- a block is `{kind, data}`: `text` -> a string; `toolUse` -> `{toolUseId: str, name: str, input:
  object}`; `toolResult` -> `{toolUseId: str, status: "success"|"error", content: [item]}`, each item
  `{kind: "text", data: str}` or `{kind: "json", data: <any JSON>}` or `{kind: "image", data: object}`;
  `thinking` -> an object whose `text` is a string, `signature` a string and `redactedContent` a
  list of bytes (0..255) when present; `image` -> an object;
- Kiro refuses a history holding two `AssistantMessage` records in a row, and a tool result whose
  call is not in the `AssistantMessage` right before it;
- the session metadata (`<uuid>.json`, an export's `metadata`) has `session_id`, `cwd`, `created_at`
  and `updated_at` as strings, `title` a string when present, `session_state` an object.

`problems(...)` lists what would make Kiro refuse the file ([]: it loads)."""
from __future__ import annotations

from typing import Any

KINDS = {"Prompt", "AssistantMessage", "ToolResults", "Clear", "Metadata"}
WITH_CONTENT = {"Prompt", "AssistantMessage", "ToolResults"}


def _number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _item(item: object, at: str) -> list[str]:
    if not isinstance(item, dict) or item.get("kind") not in ("text", "json", "image") or "data" not in item:
        return [f"{at}: a result item is {{kind: text|json|image, data}}"]
    if item["kind"] == "text" and not isinstance(item["data"], str):
        return [f"{at}.data: a text item holds a string"]
    if item["kind"] == "image" and not isinstance(item["data"], dict):
        return [f"{at}.data: an image item holds an object"]
    return []


def _block(block: object, at: str) -> list[str]:
    if not isinstance(block, dict) or "data" not in block:
        return [f"{at}: a block is {{kind, data}}"]
    kind, data = block.get("kind"), block["data"]
    if kind == "text":
        return [] if isinstance(data, str) else [f"{at}.data: a text block holds a string"]
    if kind == "toolUse":
        ok = isinstance(data, dict) and isinstance(data.get("toolUseId"), str) and \
            isinstance(data.get("name"), str) and isinstance(data.get("input"), dict)
        return [] if ok else [f"{at}.data: a tool call is {{toolUseId: str, name: str, input: object}}"]
    if kind == "toolResult":
        if not (isinstance(data, dict) and isinstance(data.get("toolUseId"), str)
                and data.get("status") in ("success", "error") and isinstance(data.get("content"), list)):
            return [f"{at}.data: a tool result is {{toolUseId: str, status, content: list}}"]
        return [p for n, item in enumerate(data["content"]) for p in _item(item, f"{at}.data.content[{n}]")]
    if kind == "thinking":
        if not isinstance(data, dict):
            return [f"{at}.data: a thinking block holds an object"]
        out = []
        for name in ("text", "signature"):
            if name in data and not isinstance(data[name], str):
                out.append(f"{at}.data.{name}: a string")
        blob = data.get("redactedContent", [])
        if not (isinstance(blob, list) and all(isinstance(b, int) and 0 <= b <= 255 for b in blob)):
            out.append(f"{at}.data.redactedContent: a byte array")
        return out
    if kind == "image":
        return [] if isinstance(data, dict) else [f"{at}.data: an image block holds an object"]
    return [f"{at}: unknown block kind {kind!r}"]


def log_problems(entries: list[Any]) -> list[str]:
    out: list[str] = []
    before: dict[str, Any] | None = None
    for n, entry in enumerate(entries):
        at = f"entry {n}"
        if not (isinstance(entry, dict) and entry.get("version") == "v1" and entry.get("kind") in KINDS
                and isinstance(entry.get("data"), dict)):
            out.append(f"{at}: an entry is {{version: v1, kind, data}}")
            before = None
            continue
        kind, data = entry["kind"], entry["data"]
        if not isinstance(data.get("message_id"), str):
            out.append(f"{at}.data.message_id: a string")
        if kind in WITH_CONTENT:
            content = data.get("content")
            if not isinstance(content, list):
                out.append(f"{at}.data.content: a list")
                content = []
            out.extend(p for m, block in enumerate(content) for p in _block(block, f"{at}.data.content[{m}]"))
            meta = data.get("meta")
            if meta is not None and not (isinstance(meta, dict) and _number(meta.get("timestamp", 0))):
                out.append(f"{at}.data.meta: {{timestamp: number}}")
            if kind == "AssistantMessage" and before is not None and before.get("kind") == "AssistantMessage":
                out.append(f"{at}: two AssistantMessage records in a row")
            if kind == "ToolResults":
                asked = {b["data"]["toolUseId"] for b in (before or {}).get("data", {}).get("content", [])
                         if isinstance(b, dict) and b.get("kind") == "toolUse" and isinstance(b.get("data"), dict)} \
                    if before is not None and before.get("kind") == "AssistantMessage" else set()
                for block in content:
                    if isinstance(block, dict) and block.get("kind") == "toolResult" and \
                            isinstance(block.get("data"), dict) and block["data"].get("toolUseId") not in asked:
                        out.append(f"{at}: a tool result whose call is not in the AssistantMessage before it")
        before = entry
    return out


def metadata_problems(meta: object) -> list[str]:
    if not isinstance(meta, dict):
        return ["metadata: an object"]
    out = [f"metadata.{k}: a string" for k in ("session_id", "cwd", "created_at", "updated_at")
           if k in meta and not isinstance(meta[k], str)]
    out += [f"metadata.{k}: missing" for k in ("session_id", "cwd") if k not in meta]
    if "title" in meta and meta["title"] is not None and not isinstance(meta["title"], str):
        out.append("metadata.title: a string")
    if "session_state" in meta and not isinstance(meta["session_state"], dict):
        out.append("metadata.session_state: an object")
    return out


def export_problems(doc: object) -> list[str]:
    if not (isinstance(doc, dict) and doc.get("format") == "kiro-session-export-v1"
            and isinstance(doc.get("log_entries"), list)):
        return ["export: {format: kiro-session-export-v1, metadata, log_entries: list}"]
    return metadata_problems(doc.get("metadata")) + log_problems(doc["log_entries"])
