"""Validates a Letta Agent File against the format's JSON Schema (AgentFileSchema, as Letta's
OpenAPI document defines it; tests/fixtures/letta/NOTICE says where it comes from).

Usage: validate_af.py SCHEMA FILE. Prints "ok" and exits 0, or prints the errors and exits 1.
"""

import json
import sys

import jsonschema


def main() -> int:
    schema = json.load(open(sys.argv[1]))
    doc = json.load(open(sys.argv[2]))
    if isinstance(doc, str):
        doc = json.loads(doc)
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
    if errors:
        for e in errors[:20]:
            print("/".join(str(p) for p in e.absolute_path), e.message[:300])
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
