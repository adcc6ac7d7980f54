"""JSON Schema of every event, exported to docs/schemas/ (`contraflow schemas`)."""

from __future__ import annotations

import json
from pathlib import Path

from topics.catalog import ALL_TOPICS


def schemas() -> dict[str, str]:
    """File name -> JSON Schema text, one per topic's value event."""
    out = {}
    for spec in ALL_TOPICS:
        schema = spec.value.model_json_schema()
        schema["$comment"] = f"value of topic {spec.name} (key: {spec.key})"
        out[f"{spec.name}.schema.json"] = json.dumps(schema, indent=2, sort_keys=True) + "\n"
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
    """Names of the schema files that are missing or differ from the models."""
    return [
        name for name, text in schemas().items() if not (folder / name).is_file() or (folder / name).read_text() != text
    ]
