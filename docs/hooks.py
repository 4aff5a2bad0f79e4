"""The documentation's generated parts (an MkDocs hook): the API reference from the project's
own OpenAPI schema, and the settings table from the settings modules, so neither can drift
from the code. A page asks for one with a marker line, `<!-- generated: api -->` or
`<!-- generated: settings -->`; a setting the code reads that docs/operators/settings.yaml
does not describe (or one it describes that nothing reads) fails the build."""

from __future__ import annotations

import ast
import json
import os
import re
import sys
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
DESCRIPTIONS = ROOT / "docs" / "operators" / "settings.yaml"
# Where the service reads its environment: the settings modules (and gunicorn's), and the
# script `make run` serves with.
SETTINGS_MODULES = sorted((ROOT / "config").glob("*.py"))
RUN_SCRIPT = ROOT / "scripts" / "run.sh"
# run.sh's own: set by the script for the copy of itself it starts again, never by anyone.
INTERNAL = {"CONQUEST_RUN_SIGNALS"}
READERS = {"env", "env_flag", "env_int", "env_float", "env_list", "get", "setdefault",
           "getenv"}


class Undocumented(Exception):
    """The code and docs/operators/settings.yaml name different settings."""


# ---- settings -------------------------------------------------------------------------

def _reads_in_python(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call) and node.args:
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if name in READERS and _an_environment_read(func):
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    names.add(first.value)
        elif isinstance(node, ast.Subscript) and _is_os_environ(node.value):
            if isinstance(node.slice, ast.Constant):
                names.add(node.slice.value)
    return {name for name in names if re.fullmatch(r"[A-Z][A-Z0-9_]*", name)}


def _is_os_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def _an_environment_read(func: ast.AST) -> bool:
    """env(...), env_flag(...), ... or os.environ.get/setdefault(...), os.getenv(...)."""
    if isinstance(func, ast.Name):
        return func.id.startswith("env")
    if func.attr == "getenv":
        return True
    return func.attr in ("get", "setdefault") and _is_os_environ(func.value)


def settings_read() -> dict[str, list[str]]:
    """{variable: [the files that read it]} for every environment variable the service reads."""
    where: dict[str, list[str]] = {}
    for path in SETTINGS_MODULES:
        for name in _reads_in_python(path):
            where.setdefault(name, []).append(str(path.relative_to(ROOT)))
    for name in re.findall(r"\$\{([A-Z][A-Z0-9_]*):-", RUN_SCRIPT.read_text()):
        files = where.setdefault(name, [])
        if str(RUN_SCRIPT.relative_to(ROOT)) not in files:
            files.append(str(RUN_SCRIPT.relative_to(ROOT)))
    return {name: files for name, files in where.items() if name not in INTERNAL}


def settings_described() -> list[dict]:
    return yaml.safe_load(DESCRIPTIONS.read_text())


def settings_markdown() -> str:
    read, rows = settings_read(), settings_described()
    described = [name for row in rows for name in row["names"]]
    missing = sorted(set(read) - set(described))
    unread = sorted(set(described) - set(read))
    if missing or unread:
        raise Undocumented(
            f"{DESCRIPTIONS.relative_to(ROOT)}: read by the code but not described: {missing}; "
            f"described but read nowhere: {unread}")
    lines = ["| Variable | Default | Meaning | Read in |", "|---|---|---|---|"]
    for row in rows:
        names = ", ".join(f"`{name}`" for name in row["names"])
        files = sorted({f for name in row["names"] for f in read[name]})
        lines.append(f"| {names} | {row['default']} | {_cell(row['meaning'])} | "
                     f"{', '.join(f'`{f}`' for f in files)} |")
    return "\n".join(lines)


def _cell(text: str) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


# ---- the API --------------------------------------------------------------------------

@cache
def schema() -> dict:
    """The OpenAPI document /api/v1/schema/ serves, made by the same generator."""
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from drf_spectacular.generators import SchemaGenerator

    # Through JSON, as the endpoint answers it (lazy translations become text).
    return json.loads(json.dumps(SchemaGenerator().get_schema(request=None, public=True),
                                 default=str))


METHODS = ("get", "post", "put", "patch", "delete")


def operations(document: dict) -> list[tuple[str, str, dict]]:
    return [(method.upper(), path, op) for path, item in document["paths"].items()
            for method, op in item.items() if method in METHODS]


def api_markdown(document: dict) -> str:
    out = [f"*{document['info']['title']}, version {document['info']['version']}; "
           f"{len(operations(document))} operations, generated from the OpenAPI schema "
           f"(OpenAPI {document['openapi']}).*", ""]
    by_tag: dict[str, list] = {}
    for method, path, op in operations(document):
        by_tag.setdefault((op.get("tags") or ["other"])[0], []).append((method, path, op))
    for tag in sorted(by_tag):
        out += [f"## {tag.capitalize()}", ""]
        for method, path, op in by_tag[tag]:
            out += _operation(method, path, op)
    out += ["## Schemas", "",
            "The shapes the operations above name, as the schema declares them.", ""]
    for name, shape in sorted(document["components"]["schemas"].items()):
        out += [f"### {name} {{#schema-{name.lower()}}}", ""]
        out += _shape(shape)
    return "\n".join(out)


def _operation(method: str, path: str, op: dict) -> list[str]:
    out = [f"### `{method} {path}` {{#{op['operationId']}}}", ""]
    if op.get("summary"):
        out += [f"**{op['summary']}**", ""]
    if op.get("description"):
        out += [op["description"].strip(), ""]
    parameters = op.get("parameters") or []
    if parameters:
        out += ["| Parameter | In | Type | Required | Meaning |", "|---|---|---|---|---|"]
        for p in parameters:
            out.append(f"| `{p['name']}` | {p['in']} | {_type(p.get('schema', {}))} | "
                       f"{'yes' if p.get('required') else 'no'} | "
                       f"{_cell(p.get('description', ''))} |")
        out.append("")
    body = (op.get("requestBody") or {}).get("content", {})
    if body:
        kind, content = next(iter(body.items()))
        out += [f"Body ({kind}): {_type(content.get('schema', {}))}", ""]
    out += ["| Answer | Meaning |", "|---|---|"]
    for status, answer in op.get("responses", {}).items():
        content = answer.get("content", {})
        shape = ""
        if content:
            shape = _type(next(iter(content.values())).get("schema", {}))
        meaning = "; ".join(part for part in (shape, _cell(answer.get("description", ""))) if part)
        out.append(f"| {status} | {meaning} |")
    return out + [""]


def _type(shape: dict) -> str:
    if "$ref" in shape:
        name = shape["$ref"].rsplit("/", 1)[-1]
        return f"[{name}](#schema-{name.lower()})"
    for combination in ("oneOf", "anyOf"):
        if combination in shape:
            return " or ".join(_type(s) for s in shape[combination])
    if "allOf" in shape:
        return _type(shape["allOf"][0])
    kind = shape.get("type", "any")
    if isinstance(kind, list):
        kind = " or ".join(kind)
    if kind == "array":
        return f"array of {_type(shape.get('items', {}))}"
    if "enum" in shape:
        return f"{kind}: " + ", ".join(f"`{v}`" for v in shape["enum"])
    return kind


def _shape(shape: dict) -> list[str]:
    out = []
    if shape.get("description"):
        out += [_cell(shape["description"]), ""]
    for combination in ("oneOf", "anyOf"):
        if combination in shape:
            out += ["One of: " + ", ".join(_type(s) for s in shape[combination]), ""]
    properties = shape.get("properties") or {}
    if not properties and "enum" in shape:
        out += [_type(shape), ""]
    if properties:
        required = set(shape.get("required", []))
        out += ["| Field | Type | Required | Meaning |", "|---|---|---|---|"]
        for field, spec in properties.items():
            out.append(f"| `{field}` | {_type(spec)} | {'yes' if field in required else 'no'} "
                       f"| {_cell(spec.get('description', ''))} |")
        out.append("")
    return out


# ---- the hook -------------------------------------------------------------------------

MARKER = re.compile(r"^<!-- generated: (api|settings) -->$", re.M)


def on_page_markdown(markdown, page, config, files, **kwargs):
    def generated(match):
        return api_markdown(schema()) if match[1] == "api" else settings_markdown()

    return MARKER.sub(generated, markdown)
