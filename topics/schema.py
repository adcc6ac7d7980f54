"""JSON Schema and a Markdown page for every topic's event, exported to docs/
(`contraflow schemas`); a test checks that the files match the models."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from contraflow.topics.catalog import ALL_TOPICS, TopicSpec


def _type_of(prop: dict[str, Any]) -> str:
    if "$ref" in prop:
        return prop["$ref"].rsplit("/", 1)[-1]
    if "anyOf" in prop:
        return " or ".join(_type_of(p) for p in prop["anyOf"])
    if prop.get("type") == "array":
        return f"list[{_type_of(prop.get('items', {}))}]"
    if "enum" in prop:
        return " / ".join(map(str, prop["enum"]))
    kind = prop.get("type", "any")
    return f"{kind} ({prop['format']})" if "format" in prop else str(kind)


def _field_table(schema: dict[str, Any]) -> list[str]:
    required = set(schema.get("required", []))
    rows = ["| field | type | required | description |", "|---|---|---|---|"]
    for name, prop in schema.get("properties", {}).items():
        description = prop.get("description", "").replace("|", "\\|")
        rows.append(f"| `{name}` | {_type_of(prop)} | {'yes' if name in required else 'no'} | {description} |")
    return rows


def markdown_page(spec: TopicSpec) -> str:
    """A page describing one topic and the fields of its event."""
    schema = spec.value.model_json_schema()
    lines = [
        f"# `{spec.name}`",
        "",
        f"{spec.description.capitalize()}.",
        "",
        f"- direction: {spec.direction}",
        f"- key: {spec.key}",
        f"- value: `{spec.value.__name__}`, JSON (UTF-8); schema: [{spec.name}.schema.json]({spec.name}.schema.json)",
        f"- retention: {spec.retention_ms // 86_400_000} days",
        "",
        f"## {spec.value.__name__}",
        "",
        (spec.value.__doc__ or "").strip(),
        "",
        *_field_table(schema),
    ]
    for name, sub in schema.get("$defs", {}).items():
        if "properties" in sub:
            lines += ["", f"### {name}", "", (sub.get("description") or "").strip(), "", *_field_table(sub)]
    return "\n".join(lines).replace("\n\n\n", "\n\n") + "\n"


def schemas() -> dict[str, str]:
    """File name -> content: a JSON Schema and a Markdown page per topic."""
    out = {}
    for spec in ALL_TOPICS:
        schema = spec.value.model_json_schema()
        schema["$comment"] = f"value of topic {spec.name} (key: {spec.key})"
        out[f"{spec.name}.schema.json"] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
        out[f"{spec.name}.md"] = markdown_page(spec)
    return out


def write_schemas(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in schemas().items():
        path = folder / name
        path.write_text(text)
        written.append(path)
    return written


def check_schemas(folder: Path) -> list[str]:
    """Names of the files that are missing or differ from the models."""
    return [
        name for name, text in schemas().items() if not (folder / name).is_file() or (folder / name).read_text() != text
    ]
