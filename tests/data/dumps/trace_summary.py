#!/usr/bin/env python3
"""Summarise the trace.json files under a trace folder, one record per line:
run<TAB>index<TAB>phase<TAB>name<TAB>status<TAB>depth<TAB>anchor<TAB>sha(before)<TAB>sha(after)

Used by the dump import/run integration tests to compare traces. Options:
  --no-phase / --no-anchor   leave those columns empty (for comparing front ends)
  --texts DIR                also write <run>_<index>_{before,after}.txt into DIR
"""
import glob, hashlib, json, os, sys

def main():
    args = sys.argv[1:]
    no_phase = "--no-phase" in args
    no_anchor = "--no-anchor" in args
    texts = None
    if "--texts" in args:
        texts = args[args.index("--texts") + 1]
    root = [a for a in args if not a.startswith("--") and a != texts][0]
    # os.walk, not glob: run folders live under the hidden .run_records.
    runs = sorted(os.path.join(dp, "trace.json") for dp, _, fs in os.walk(root) if "trace.json" in fs)
    for run_no, tj in enumerate(runs):
        d = json.load(open(tj))
        base = os.path.dirname(tj)
        for r in d["records"]:
            shas = []
            for side in ("before_text", "after_text"):
                ref = r.get(side) or {}
                f = ref.get("file") if isinstance(ref, dict) else None
                data = open(os.path.join(base, f), "rb").read() if f and os.path.exists(os.path.join(base, f)) else b""
                shas.append(hashlib.sha1(data).hexdigest()[:12])
                if texts:
                    open(os.path.join(texts, "%d_%03d_%s.txt" % (run_no, r["index"], side[:-5])), "wb").write(data)
            print("\t".join(str(x) for x in (
                run_no, r["index"], "" if no_phase else r["phase"], r["name"], r["status"], r["depth"],
                "" if no_anchor else r.get("anchor", ""), shas[0], shas[1])))

main()
