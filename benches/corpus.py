#!/usr/bin/env python3
"""Whole-run benchmark of `conform run` and `conform validate` over synthetic corpora.

    python3 benches/corpus.py                      # 10,000 chat, 10,000 and 100,000 of every suite
    python3 benches/corpus.py --sizes 10000 --suites chat --repeat 5
    python3 benches/corpus.py --binary target/release/conform --keep /tmp/corpora

It builds the release binary (unless --binary is given), then writes corpora made from the bundled
fixtures in fixtures/: each copy gets a distinct name (file stem and `name` member), so a corpus of
N fixtures cycles through every bundled fixture of the chosen suites, with their varied inputs and
sizes (about 300 bytes to 300 KB). Every copy is judged by the reference exactly as its source is,
so a run passes. For each corpus and command it prints the median wall time, MB/s of fixture JSON,
cases/s and peak RSS (getrusage of the child, in MB) over --repeat runs. Nothing in the corpora
comes from outside this repository; they are removed afterwards unless --keep names a folder.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sources(suites):
    """The bundled fixtures of `suites` (every suite when empty), sorted, as (suite, stem, document)."""
    found = []
    base = os.path.join(ROOT, "fixtures")
    for suite in sorted(os.listdir(base)):
        folder = os.path.join(base, suite)
        if not os.path.isdir(folder) or (suites and suite not in suites):
            continue
        for name in sorted(os.listdir(folder)):
            if name.endswith(".json") and not name.startswith("."):
                with open(os.path.join(folder, name), encoding="utf-8") as handle:
                    found.append((suite, name[: -len(".json")], handle.read()))
    return found


def build_corpus(target, size, suites):
    """Writes `size` fixtures into `target` (one folder per suite); returns their total bytes."""
    pool = sources(suites)
    total = 0
    for i in range(size):
        suite, stem, text = pool[i % len(pool)]
        folder = os.path.join(target, suite)
        os.makedirs(folder, exist_ok=True)
        copy = f"{stem}-{i // len(pool):05d}"
        if '"name"' in text:
            document = json.loads(text)
            if document.get("name") == stem:
                # Only the name member changes: the rest keeps its bytes (numbers, order).
                text = text.replace(f'"name": "{stem}"', f'"name": "{copy}"', 1)
        with open(os.path.join(folder, copy + ".json"), "w", encoding="utf-8") as handle:
            handle.write(text)
        total += len(text.encode("utf-8"))
    return total


def measure(argv):
    """Runs `argv` once: (wall seconds, peak RSS in MB of that child, exit code)."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execv(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    # ru_maxrss is in KiB on Linux.
    return wall, usage.ru_maxrss / 1024, os.waitstatus_to_exitcode(status)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", help="conform binary to time (default: build and use target/release/conform)")
    parser.add_argument("--sizes", default="10000,100000", help="corpus sizes, comma-separated")
    parser.add_argument("--suites", default="", help="only these suites (comma-separated); default: chat at 10,000, and every suite")
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (the median is printed)")
    parser.add_argument("--keep", help="write the corpora here and keep them")
    parser.add_argument("--commands", default="run,validate", help="which commands to time")
    args = parser.parse_args()

    binary = args.binary
    if binary is None:
        subprocess.run(["cargo", "build", "--release", "--quiet"], cwd=ROOT, check=True)
        binary = os.path.join(ROOT, "target", "release", "conform")
    binary = os.path.abspath(binary)

    plans = []
    sizes = [int(s) for s in args.sizes.split(",") if s]
    if args.suites:
        chosen = [s for s in args.suites.split(",") if s]
        plans = [(size, chosen) for size in sizes]
    else:
        plans = [(10000, ["chat"])] if 10000 in sizes else []
        plans += [(size, []) for size in sizes]

    work = args.keep or tempfile.mkdtemp(prefix="conform-bench-")
    print(f"binary: {binary}")
    print(f"{'corpus':<22} {'command':<9} {'wall s':>8} {'MB/s':>8} {'cases/s':>9} {'peak MB':>8}  exit")
    try:
        for size, suites in plans:
            label = f"{'+'.join(suites) or 'all'}-{size}"
            corpus = os.path.join(work, label)
            if os.path.isdir(corpus):
                shutil.rmtree(corpus)
            total = build_corpus(corpus, size, suites)
            out = os.path.join(work, label + "-reports")
            for command in args.commands.split(","):
                if command == "run":
                    argv = [binary, "run", corpus, "--format", "json", "--out", out]
                else:
                    argv = [binary, command, corpus]
                runs = [measure(argv) for _ in range(args.repeat)]
                wall = statistics.median(r[0] for r in runs)
                peak = max(r[1] for r in runs)
                codes = sorted({r[2] for r in runs})
                print(
                    f"{label:<22} {command:<9} {wall:>8.3f} {total / 1e6 / wall:>8.1f} {size / wall:>9.0f} "
                    f"{peak:>8.1f}  {','.join(map(str, codes))}",
                    flush=True,
                )
            if not args.keep:
                shutil.rmtree(corpus)
                shutil.rmtree(out, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
