#!/usr/bin/env python3
"""Runs two `conform` binaries (say, of two git revisions) over the same
fixture trees and compares everything they write, byte for byte, once the
parts that differ from run to run are masked: timings, durations, dates and
rates. A change that should not change behaviour (a refactor, a rename)
must leave every byte the same.

usage: same_outputs.py BEFORE AFTER [--work DIR] [--skip-explore] [--self-check]

BEFORE and AFTER are `conform` binaries (e.g. built from `git worktree add`
of each revision). Each is copied to the same path before it runs, so the
command lines the reports record are the same. The trees, read in place:

  fixtures/                   the bundled fixtures (the tree this script sits in)
  ../shared/hapi/fixtures     the HAPI corpus
  a broken copy of fixtures/  every fifth fixture's first expected string
                              changed, so that failing cases (differences,
                              diffs, clusters, rules) reach every writer

For each tree: `list`, `validate`, `coverage` (text and `--json`), and `run`
once per report format (pretty, json, junit, markdown, html), once with the
defaults and once with every format and `-v`, once partitioned; on the broken
copy also `baseline write` from the run and a run with that baseline. Then
`explore` with a fixed `--seed` and `--count` against the reference over the
protocol and against a planted mutant (clusters, reduction, pending fixtures),
`explore --replay`, and `review --list` and `--accept-all` of the pending
fixtures explore wrote. Each command's exit code, stdout, stderr and every
file it wrote are compared.

--self-check runs BEFORE twice and compares it with itself first: anything
that differs then is noise the masks miss, not a change.

Exit 0 when every output is the same, 1 when any differs (each difference is
named, with the first differing line), 2 on a usage error.
"""

import argparse
import difflib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
HAPI = os.path.normpath(os.path.join(ROOT, "..", "shared", "hapi", "fixtures"))
MUTANT = os.path.join(ROOT, "tests", "adapters", "mutants", "pagination_tie.py")
FORMATS = ["pretty", "json", "junit", "markdown", "html"]
SEED = "7"

# What differs from run to run, and what stands in for it.
MASKS = [
    (re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)?"), "<DATE>"),
    (re.compile(r'("[A-Za-z_]*(?:_ms|duration|Ms|_per_second)"\s*:\s*)-?[0-9][0-9.eE+-]*'), r"\1<T>"),
    (re.compile(r'("(?:generate|subject|against|judge)"\s*:\s*)-?[0-9][0-9.eE+-]*'), r"\1<T>"),
    (re.compile(r'\b(time)="[0-9.]+"'), r'\1="<T>"'),
    (re.compile(r"\b\d+(?:/\d+){3}\b"), "<T/T/T/T>"),
    (re.compile(r"\b\d+(?:\.\d+)?\s?(?:ms|s|inputs/s|µs)\b"), "<T>"),
]


def mask(data: bytes) -> bytes:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    for pattern, replacement in MASKS:
        text = pattern.sub(replacement, text)
    return text.encode("utf-8")


def broken_copy(source, target):
    """Copies the fixture tree with every fifth fixture's first expected string changed."""
    shutil.copytree(source, target)
    count = 0
    for folder, dirs, files in sorted(os.walk(target)):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith(".json"):
                continue
            count += 1
            if count % 5:
                continue
            path = os.path.join(folder, name)
            with open(path, encoding="utf-8") as f:
                try:
                    document = json.load(f)
                except ValueError:
                    continue
            if not isinstance(document, dict) or not change_first_string(document, expected_only=True):
                continue
            with open(path, "w", encoding="utf-8") as f:
                json.dump(document, f, indent=2)
                f.write("\n")


def change_first_string(node, expected_only=False):
    """Appends to the first string leaf (of an `expected…` member at the top): whether one was found."""
    if isinstance(node, dict):
        for key in list(node):
            if expected_only and not key.startswith("expected"):
                continue
            if isinstance(node[key], str):
                node[key] += " (changed)"
                return True
            if change_first_string(node[key]):
                return True
    elif isinstance(node, list):
        for index, value in enumerate(node):
            if isinstance(value, str):
                node[index] = value + " (changed)"
                return True
            if change_first_string(value):
                return True
    return False


def commands(work):
    """(name, argv after the binary, folders whose files count) of every command compared."""
    out = os.path.join(work, "out")
    pending = os.path.join(work, "pending")
    accepted = os.path.join(work, "accepted")
    binary = os.path.join(work, "bin", "conform")
    mutant = f"{sys.executable} {MUTANT} {binary}"
    trees = [("fixtures", os.path.join(ROOT, "fixtures")), ("hapi", HAPI), ("broken", os.path.join(work, "broken"))]
    found = []
    for name, tree in trees:
        found.append((f"{name}: list", ["list", tree], []))
        found.append((f"{name}: validate", ["validate", tree], []))
        found.append((f"{name}: coverage", ["coverage", tree], []))
        found.append((f"{name}: coverage --json", ["coverage", "--json", tree], []))
        found.append((f"{name}: run", ["run", tree, "--out", out, "--no-progress"], [out]))
        for fmt in FORMATS:
            found.append(
                (f"{name}: run --format {fmt}", ["run", tree, "--format", fmt, "--out", out, "--no-progress"], [out])
            )
        every = [arg for fmt in FORMATS for arg in ("--format", fmt)]
        found.append((f"{name}: run -v, every format", ["run", tree, "-v", *every, "--out", out, "--no-progress"], [out]))
        found.append(
            (f"{name}: run --partition 2/3", ["run", tree, "--partition", "2/3", "--out", out, "--no-progress"], [out])
        )
    broken = os.path.join(work, "broken")
    baseline = os.path.join(work, "baseline.toml")
    report = os.path.join(out, "conform-report.json")
    found.append(("broken: run, then baseline write", ["run", broken, "--out", out, "--no-progress", "-q"], [out]))
    found.append(("broken: baseline write", ["baseline", "write", "--from", report, "--out", baseline], [baseline]))
    found.append(
        (
            "broken: run --baseline",
            ["run", broken, "--baseline", baseline, "--today", "2026-01-01", *every, "--out", out, "--no-progress"],
            [out],
        )
    )
    explore = ["explore", "--seed", SEED, "-j", "2", "--out", out, "--pending-dir", pending]
    explore_formats = ["--format", "pretty", "--format", "json", "--format", "markdown"]
    found.append(
        (
            "explore: reference over the protocol",
            [*explore, "--impl-cmd", f"{binary} adapter", "--count", "60", *explore_formats, "--no-pending"],
            [out],
        )
    )
    found.append(
        (
            "explore: hapi seeds, reference over the protocol",
            [*explore, HAPI, "--impl-cmd", f"{binary} adapter", "--count", "30", "--format", "json", "--no-pending"],
            [out],
        )
    )
    found.append(
        (
            "explore: a planted mutant",
            [*explore, "--suite", "pagination", "--impl-cmd", mutant, "--count", "100", *explore_formats],
            [out, pending],
        )
    )
    found.append(("explore --replay", ["explore", "--seed", SEED, "--replay", "chat#17"], []))
    found.append(("review --list", ["review", pending, "--list"], []))
    found.append(("review --check", ["review", pending, "--check"], []))
    found.append(("review --accept-all (a copy)", ["review", accepted, "--accept-all"], [accepted]))
    return found


def snapshot(paths):
    """Every file under `paths` (or the file itself): relative path to masked bytes."""
    files = {}
    for path in paths:
        if os.path.isfile(path):
            with open(path, "rb") as f:
                files[os.path.basename(path)] = mask(f.read())
            continue
        for folder, _, names in os.walk(path):
            for name in names:
                full = os.path.join(folder, name)
                with open(full, "rb") as f:
                    files[os.path.relpath(full, os.path.dirname(path))] = mask(f.read())
    return files


def run_all(binary, work):
    """Runs every command with `binary` (copied to WORK/bin/conform): name to outputs."""
    os.makedirs(os.path.join(work, "bin"), exist_ok=True)
    shutil.copy2(binary, os.path.join(work, "bin", "conform"))
    for scratch in ("out", "pending", "accepted"):
        shutil.rmtree(os.path.join(work, scratch), ignore_errors=True)
    if os.path.exists(os.path.join(work, "baseline.toml")):
        os.remove(os.path.join(work, "baseline.toml"))
    env = dict(os.environ, NO_COLOR="1", CI="")
    env.pop("FORCE_COLOR", None)
    env.pop("CLICOLOR_FORCE", None)
    results = {}
    for name, argv, written in commands(work):
        if name.startswith("review --accept-all"):
            shutil.rmtree(os.path.join(work, "accepted"), ignore_errors=True)
            if os.path.isdir(os.path.join(work, "pending")):
                shutil.copytree(os.path.join(work, "pending"), os.path.join(work, "accepted"))
            else:
                os.makedirs(os.path.join(work, "accepted"))
        for path in written:
            if os.path.isdir(path) and not name.startswith("review"):
                shutil.rmtree(path)
        if ARGS.skip_explore and name.startswith(("explore", "review")):
            continue
        done = subprocess.run(
            [os.path.join(work, "bin", "conform"), *argv],
            cwd=ROOT,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        results[name] = {
            "exit code": str(done.returncode).encode(),
            "stdout": mask(done.stdout),
            "stderr": mask(done.stderr),
            **{f"file {path}": data for path, data in sorted(snapshot(written).items())},
        }
    return results


def compare(before, after, label):
    """Names every output that differs; the number of differences."""
    differing = 0
    for name in before.keys() | after.keys():
        one, other = before.get(name, {}), after.get(name, {})
        for part in sorted(one.keys() | other.keys()):
            if one.get(part) == other.get(part):
                continue
            differing += 1
            first = one.get(part, b"(missing)").decode("utf-8", "replace").splitlines()
            second = other.get(part, b"(missing)").decode("utf-8", "replace").splitlines()
            diff = list(difflib.unified_diff(first, second, "before", "after", n=0, lineterm=""))
            print(f"DIFFERS ({label}) {name}: {part}")
            for line in diff[2:8]:
                print(f"    {line[:200]}")
    return differing


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("before", help="the conform binary of the earlier revision")
    parser.add_argument("after", help="the conform binary of the later revision")
    parser.add_argument("--work", help="scratch folder (default: a temporary one, removed)")
    parser.add_argument("--skip-explore", action="store_true", help="leave explore and review out (they take longest)")
    parser.add_argument("--self-check", action="store_true", help="run BEFORE twice first, to show what the masks miss")
    global ARGS
    ARGS = parser.parse_args()
    for binary in (ARGS.before, ARGS.after):
        if not os.access(binary, os.X_OK):
            print(f"not an executable: {binary}", file=sys.stderr)
            return 2
    if not os.path.isdir(HAPI):
        print(f"the HAPI corpus is not at {HAPI}", file=sys.stderr)
        return 2
    work = ARGS.work or tempfile.mkdtemp(prefix="same-outputs-")
    try:
        broken = os.path.join(work, "broken")
        shutil.rmtree(broken, ignore_errors=True)
        broken_copy(os.path.join(ROOT, "fixtures"), broken)
        before = run_all(ARGS.before, work)
        differing = 0
        if ARGS.self_check:
            differing += compare(before, run_all(ARGS.before, work), "before against itself")
        after = run_all(ARGS.after, work)
        differing += compare(before, after, "before against after")
        outputs = sum(len(parts) for parts in before.values())
        print(f"{len(before)} commands, {outputs} outputs compared: {differing} differ")
        return 1 if differing else 0
    finally:
        if not ARGS.work:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
