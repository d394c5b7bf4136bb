#!/usr/bin/env python3
"""Builds a libFuzzer seed corpus (one file per input) from the committed
data, so that the repository keeps lines, not thousands of files.

    make_corpus.py eval  OUT_DIR   request lines: data/validation/*.jsonl (and
                                   every 10th in all six precisions), the
                                   requests of data/counterexamples/*.json,
                                   tests/fuzz/seeds/eval_edges.jsonl, the
                                   regressions in tests/fuzz/regressions/eval
    make_corpus.py check OUT_DIR   answer lines: tests/fuzz/seeds/check_answers.jsonl,
                                   tests/fuzz/regressions/check
"""
import hashlib
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
PRECISIONS = ["float", "double", "long double", "mp50", "mp100", "exact"]


def lines(path):
    return [l for l in path.read_text().splitlines() if l.strip()]


def eval_inputs():
    for f in sorted((ROOT / "data/validation").glob("*.jsonl")):
        for i, line in enumerate(lines(f)):
            yield line.encode()
            if i % 10 == 0:
                request = json.loads(line)
                for p in PRECISIONS:
                    request["precision"] = p
                    yield json.dumps(request, separators=(",", ":")).encode()
    for f in sorted((ROOT / "data/counterexamples").glob("*.json")):
        doc = json.loads(f.read_text())
        if isinstance(doc, dict) and "request" in doc:
            yield json.dumps(doc["request"], separators=(",", ":")).encode()
    for line in lines(ROOT / "tests/fuzz/seeds/eval_edges.jsonl"):
        yield line.encode()
    yield from regressions("eval")


def check_inputs():
    for line in lines(ROOT / "tests/fuzz/seeds/check_answers.jsonl"):
        yield line.encode()
    yield from regressions("check")


def regressions(target):
    for f in sorted((ROOT / "tests/fuzz/regressions" / target).glob("*")):
        if f.is_file():
            yield f.read_bytes()


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("eval", "check"):
        sys.exit(__doc__)
    out = pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for data in (eval_inputs() if sys.argv[1] == "eval" else check_inputs()):
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        n += 1
    print(f"{out}: {n} seed inputs")


if __name__ == "__main__":
    main()
