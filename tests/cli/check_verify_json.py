#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-2-Clause-Patent
"""Check `lockshim verify --json` against the plain output of the same run,
for tests/cli/test_policy.sh:

  check_verify_json.py COND PLAIN IMAGE JSON

JSON must be an object with the fields schema, image, verdict, reason, list,
entry and message, of their types (docs/json.md); verdict allowed or refused;
reason a record name (src/core/verdict_reason.h: [a-z0-9-]+, never "unset"),
allowed-* exactly when allowed; image must be IMAGE; message must be PLAIN less its
"allowed: IMAGE: " or "refused: IMAGE: "; and COND, a Python expression over
the object j, the message m and $NEEDLE (NEEDLE), must hold. Exits non-zero,
with the reason, when any does not.
"""
import json
import os
import re
import sys

NEEDLE = os.environ.get("NEEDLE", "")
cond, plain, image, text = sys.argv[1:5]
j = json.loads(text)
assert isinstance(j, dict), "not an object"
for k in ("schema", "image", "verdict", "reason", "list", "entry", "message"):
    assert k in j, "no field " + k
assert j["schema"] == 1, "schema %r" % j["schema"]
assert j["image"] == image, "image %r != %r" % (j["image"], image)
assert j["verdict"] in ("allowed", "refused"), j["verdict"]
allowed = j["verdict"] == "allowed"
assert isinstance(j["reason"], str) and re.fullmatch(r"[a-z0-9-]+", j["reason"]), j["reason"]
assert j["reason"] != "unset", "a verdict without a reason code"
assert j["reason"].startswith("allowed-") == allowed, "reason %r, verdict %r" % (j["reason"], j["verdict"])
assert j["list"] is None or isinstance(j["list"], str)
assert j["entry"] is None or isinstance(j["entry"], str)
verdict = j["verdict"]
m = plain[len(verdict + ": " + image + ": "):] if plain.startswith(verdict + ": " + image + ": ") else None
assert m is not None, "plain output %r does not start with %s: IMAGE:" % (plain, verdict)
assert j["message"] == m, "message %r != plain %r" % (j["message"], m)
assert eval(cond), "failed: " + cond + " on " + text
