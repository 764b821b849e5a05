#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Validate `lockshim ... --json` output against docs/lockshim.schema.json.

  json_schema_check.py SCHEMA documents FILE...
      Each FILE holds one document printed by the subcommand its name
      starts with (verify-*, check-*, status-*, pcr-*): it must be that
      subcommand's document or the error object of an exit 2. Prints one
      line for each FILE that is not, and exits 1 if any is not.
  json_schema_check.py SCHEMA as SUBCOMMAND FILE...
      The same, each FILE printed by SUBCOMMAND whatever its name (the
      QEMU scenarios' check and status output).
  json_schema_check.py SCHEMA reasons VERDICT_REASON_H VERDICT_REASON_C
      The schema's reason codes must be the names the C code gives every
      enum verdict_reason value (all but unset and the count).
"""
import json
import os
import re
import sys

from jsonschema import Draft202012Validator


def problems(schema, doc, sub):
    """What makes @doc neither @sub's document nor the error object: [] when it is one."""
    one = dict(schema, oneOf=[{"$ref": "#/$defs/" + sub}, {"$ref": "#/$defs/error"}])
    # the error object when it is one, else the subcommand's: the errors of the one meant
    target = "error" if isinstance(doc, dict) and "error" in doc else sub
    meant = {k: v for k, v in schema.items() if k != "oneOf"}
    meant["$ref"] = "#/$defs/" + target
    errors = list(Draft202012Validator(meant).iter_errors(doc))
    if not errors and not Draft202012Validator(one).is_valid(doc):
        return ["not exactly one of the subcommand's document or the error"]
    return [f"at /{'/'.join(str(p) for p in e.absolute_path)}: {e.message}"[:400] for e in errors]


def documents(schema, files, printed_by=None):
    Draft202012Validator.check_schema(schema)
    bad = 0
    for path in files:
        sub = printed_by or os.path.basename(path).split("-", 1)[0]
        if sub not in schema["$defs"] or sub in ("error", "header"):
            print(f"{path}: no subcommand {sub!r} in the schema")
            bad += 1
            continue
        try:
            doc = json.load(open(path))
        except ValueError as e:
            print(f"{path}: not one JSON document: {e}")
            bad += 1
            continue
        errors = problems(schema, doc, sub)
        if errors:
            bad += 1
            for e in errors[:5]:
                print(f"{path}: {sub}: {e}")
    print(f"{len(files) - bad} of {len(files)} documents valid")
    return 1 if bad or not files else 0


def reasons(schema, header, source):
    body = re.search(r"enum verdict_reason \{(.*?)\};", open(header).read(), re.S).group(1)
    constants = re.findall(r"^\s*(VERDICT_[A-Z0-9_]+)", body, re.M)
    constants = [c for c in constants if c != "VERDICT_REASON_COUNT"]
    named = dict(re.findall(r"\[(VERDICT_[A-Z0-9_]+)\] = \"([a-z0-9-]+)\"", open(source).read()))
    unnamed = [c for c in constants if c not in named]
    if unnamed:
        print("no name in", source, "for", ", ".join(unnamed))
        return 1
    want = sorted(named[c] for c in constants if c != "VERDICT_UNSET")
    have = sorted(schema["$defs"]["reason"]["enum"])
    if want != have:
        print("schema reasons differ from the C names: only in C", sorted(set(want) - set(have)),
              "only in the schema", sorted(set(have) - set(want)))
        return 1
    print(f"{len(have)} reason codes, the same in the schema and in {source}")
    return 0


def main(argv):
    schema = json.load(open(argv[1]))
    if argv[2] == "documents":
        return documents(schema, argv[3:])
    if argv[2] == "as":
        return documents(schema, argv[4:], argv[3])
    if argv[2] == "reasons":
        return reasons(schema, argv[3], argv[4])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
