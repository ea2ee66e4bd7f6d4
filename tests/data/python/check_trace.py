"""Reads a trace directory back through the lowertrace package (its C API)
and prints facts the tests compare: per kernel, its variants and each run's
pass sequence. Usage: check_trace.py TRACE_DIR
Output lines:  variant <kernel> <variant> <records> <error> <describe json>
               seq <kernel> <variant> <phase/name,...>"""
import json
import os
import sys

import lowertrace

root = sys.argv[1]
for k in sorted(os.listdir(root)):
    kd = os.path.join(root, k)
    if k.startswith(".") or not os.path.isdir(kd):
        continue
    for v in lowertrace.variants(kd):
        run = v["run"]
        d = dict(v["describe"])
        d.pop("hash", None)
        print("variant", k, v["variant"], len(run.records), v["error"] or "-", json.dumps(d, sort_keys=True))
        seq = ",".join(f"{r.phase}/{r.name}".replace(" ", "_").replace(",", ";") for r in run.records)
        print("seq", k, v["variant"], seq)
        st = {r.status for r in run.records}
        assert st <= {lowertrace.STATUS_COMPLETED, lowertrace.STATUS_FAILED, lowertrace.STATUS_SKIPPED,
                      lowertrace.STATUS_CODEGEN}, st
        cg = [r for r in run.records if r.status == lowertrace.STATUS_CODEGEN]
        if cg:
            assert ".visible .entry " + k in cg[0].after, "codegen record lacks the kernel's PTX"
            print("codegen", k, v["variant"], os.path.basename(cg[0].detail))
