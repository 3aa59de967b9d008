#!/usr/bin/env python3
"""Floor benchmark: what `conform validate` and `conform run` cost as multiples of reading and
parsing the same fixtures.

    python3 benches/floor.py                                  # chat, all, hapi; build with --profile release
    python3 benches/floor.py --corpora chat --repeat 9 --callgrind
    python3 benches/floor.py --per-suite                      # also a 10,000-fixture corpus of each suite
    python3 benches/floor.py --per-suite --callgrind chat,hapi  # instructions on two corpora only
    python3 benches/floor.py --before /work/targets/old/release/conform   # the old tree's binary beside it

For each corpus it times four stages, each a process over the same files:
  (a) read      every fixture file read (benches/floor.rs, the harness's bounded reader),
  (b) parse     every file read and parsed with the project's JSON parser (the floor),
  (c) validate  `conform validate CORPUS`,
  (d) run       `conform run CORPUS --out OUT` (the reference; the terminal and JSON reports),
and, with --before, (c) and (d) of another conform binary. The stages alternate (a b c d a b c d
...) --repeat times, so a burst of load on a shared machine falls on every stage alike; each is
printed as its median wall time and median CPU time (user + system of the child) and both as a
multiple of (b), with the median system CPU time and minor page faults beside (where the CPU
beyond the instructions goes: stacks, pages taken from and given back to the system). Stages (a)
and (b) start as many worker threads as `conform run` does, so wall ratios compare like with like.
With --callgrind each stage also runs once under `valgrind --tool=callgrind` and its instruction
count (Ir, every thread) is printed beside, with its multiple of (b)'s: instruction counts do not
move with machine noise (`--callgrind chat,hapi` counts on those corpora only).

Corpora: `chat` (10,000 chat fixtures) and `all` (10,000 fixtures cycling through every suite)
are built as benches/corpus.py builds them, from the bundled fixtures; `hapi` is
../shared/hapi/fixtures read in place (its stages repeat ten times as often: it takes
milliseconds); `suite:NAME` is 10,000 fixtures of one suite (--per-suite adds every suite).
Both binaries are built with the cargo profile --profile names (default release) unless
--binary and --floor name prebuilt ones.
"""

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "benches"))
from corpus import build_corpus  # noqa: E402  (the corpus benchmark's corpora, byte for byte)

SIZE = 10000


def build(profile):
    """Builds `conform` and the floor program with `profile`: their paths."""
    command = ["cargo", "build", "--profile", profile, "--bin", "conform", "--bench", "floor", "--message-format=json"]
    out = subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.PIPE, text=True).stdout
    conform = floor = None
    for line in out.splitlines():
        message = json.loads(line)
        if message.get("reason") != "compiler-artifact" or not message.get("executable"):
            continue
        if message["target"]["name"] == "conform" and "bin" in message["target"]["kind"]:
            conform = message["executable"]
        if message["target"]["name"] == "floor":
            floor = message["executable"]
    return conform, floor


def measure(argv, cwd):
    """Runs `argv` once: (wall s, CPU s of the child, system CPU s of it, its minor page faults, exit code)."""
    start = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        os.chdir(cwd)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 1)
        os.dup2(devnull, 2)
        os.execv(argv[0], argv)
    _, status, usage = os.wait4(pid, 0)
    wall = time.perf_counter() - start
    cpu = usage.ru_utime + usage.ru_stime
    return wall, cpu, usage.ru_stime, usage.ru_minflt, os.waitstatus_to_exitcode(status)


def instructions(argv, cwd):
    """The instructions `argv` executes (every thread), counted by callgrind."""
    run = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *argv],
        cwd=cwd,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    found = re.search(r"Collected\s*:\s*(\d+)", run.stderr)
    return int(found.group(1)) if found else None


def corpus_folder(name, work):
    """The folder of corpus `name` (built under `work` when synthetic) and its fixture bytes."""
    if name == "hapi":
        folder = os.path.normpath(os.path.join(ROOT, "..", "shared", "hapi", "fixtures"))
        total = sum(
            os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(folder) for f in fs if f.endswith(".json")
        )
        return folder, total
    suites = {"chat": ["chat"], "all": []}.get(name)
    if suites is None and name.startswith("suite:"):
        suites = [name[len("suite:") :]]
    if suites is None:
        raise SystemExit(f"unknown corpus {name!r}: chat, all, hapi or suite:NAME")
    folder = os.path.join(work, name.replace(":", "-"))
    if os.path.isdir(folder):
        shutil.rmtree(folder)
    total = build_corpus(folder, SIZE, suites)
    if suites and not any(document_versions(os.path.join(ROOT, "fixtures", suite)) for suite in suites):
        # Table documents (catalogs) take the newest fixtureVersion of their tree's other documents;
        # alone in a tree they would take 1 and be judged as that version, so the corpus gets the
        # VERSION the bundled tree's table takes.
        with open(os.path.join(folder, "VERSION"), "w", encoding="utf-8") as handle:
            handle.write(f"{max(document_versions(os.path.join(ROOT, 'fixtures')))}\n")
    return folder, total


def document_versions(folder):
    """The fixtureVersion members of the JSON documents under `folder`."""
    versions = []
    for directory, _, names in os.walk(folder):
        for name in names:
            if name.endswith(".json"):
                with open(os.path.join(directory, name), encoding="utf-8") as handle:
                    version = re.search(r'"fixtureVersion":\s*(\d+)', handle.read())
                if version:
                    versions.append(int(version.group(1)))
    return versions


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--profile", default="release", help="cargo profile to build both programs with")
    parser.add_argument("--binary", help="a prebuilt conform binary (then --floor too)")
    parser.add_argument("--floor", help="a prebuilt floor program (cargo build --bench floor)")
    parser.add_argument("--before", help="another conform binary whose validate and run are timed beside")
    parser.add_argument("--corpora", default="chat,all,hapi", help="comma-separated: chat, all, hapi, suite:NAME")
    parser.add_argument("--per-suite", action="store_true", help="add a 10,000-fixture corpus of every suite")
    parser.add_argument("--repeat", type=int, default=5, help="rounds of alternating stages (medians are printed)")
    parser.add_argument(
        "--callgrind",
        nargs="?",
        const="*",
        help="count instructions of each stage once: on every corpus, or on the comma-separated ones named",
    )
    parser.add_argument("--keep", help="build the corpora here and keep them")
    args = parser.parse_args()

    if args.binary and args.floor:
        conform, floor = os.path.abspath(args.binary), os.path.abspath(args.floor)
        print(f"binaries: {conform}, {floor} (prebuilt)")
    else:
        conform, floor = build(args.profile)
        print(f"binaries: {conform}, {floor} (cargo profile {args.profile})")
    names = [name for name in args.corpora.split(",") if name]
    if args.per_suite:
        names += [f"suite:{s}" for s in sorted(os.listdir(os.path.join(ROOT, "fixtures"))) if not s.startswith(".")]

    work = args.keep or tempfile.mkdtemp(prefix="conform-floor-")
    out = os.path.join(work, "reports")
    stages = [
        ("read", [floor, "read"]),
        ("parse", [floor, "parse"]),
        ("validate", [conform, "validate"]),
        ("run", [conform, "run", "--out", out]),
    ]
    if args.before:
        before = os.path.abspath(args.before)
        stages += [("validate@before", [before, "validate"]), ("run@before", [before, "run", "--out", out])]
    try:
        for name in names:
            folder, total = corpus_folder(name, work)
            repeat = args.repeat * (10 if name == "hapi" else 1)
            times = {stage: [] for stage, _ in stages}
            codes = {stage: set() for stage, _ in stages}
            for _ in range(repeat):
                for stage, argv in stages:
                    wall, cpu, system, faults, code = measure([*argv, folder], work)
                    times[stage].append((wall, cpu, system, faults))
                    codes[stage].add(code)
            counted = args.callgrind and (args.callgrind == "*" or name in args.callgrind.split(","))
            counts = {stage: instructions([*argv, folder], work) for stage, argv in stages} if counted else {}
            print(f"\n{name}: {folder} ({total / 1e6:.1f} MB of fixture JSON), {repeat} rounds")
            print(
                f"{'stage':<16} {'wall ms':>9} {'× (b)':>6} {'CPU ms':>9} {'× (b)':>6} {'Ir (M)':>9} {'× (b)':>6} "
                f"{'sys ms':>8} {'faults':>8}  exit"
            )
            floor_wall = statistics.median(t[0] for t in times["parse"])
            floor_cpu = statistics.median(t[1] for t in times["parse"])
            floor_ir = counts.get("parse")
            for stage, _ in stages:
                wall = statistics.median(t[0] for t in times[stage])
                cpu = statistics.median(t[1] for t in times[stage])
                system = statistics.median(t[2] for t in times[stage])
                faults = statistics.median(t[3] for t in times[stage])
                ir = counts.get(stage)
                ir_text = f"{ir / 1e6:>9.1f} {ir / floor_ir:>6.2f}" if ir and floor_ir else f"{'':>9} {'':>6}"
                print(
                    f"{stage:<16} {wall * 1e3:>9.1f} {wall / floor_wall:>6.2f} {cpu * 1e3:>9.1f} "
                    f"{cpu / floor_cpu:>6.2f} {ir_text} {system * 1e3:>8.1f} {faults:>8.0f}  "
                    f"{','.join(map(str, sorted(codes[stage])))}",
                    flush=True,
                )
            if not args.keep and name != "hapi":
                shutil.rmtree(folder)
            shutil.rmtree(out, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
