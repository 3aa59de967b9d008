#!/usr/bin/env python3
"""Checks JUnit reports as CI consumers read them: each file against an XSD
(with the `xmlschema` package), through `junitparser`, and through
`junit2html` (its parser and its HTML page).

usage: check_junit.py SCHEMA.xsd REPORT.xml...

Prints one line per report: `valid TESTS FAILURES ERRORS SKIPPED FILES`
(the testcases carrying a `file` attribute), or the schema errors, then
`junit2html TESTS FAILED SKIPPED` as junit2html counts them (errors count as
failed there). Exit 0 when every report could be read (valid or not), 3 when
a package is missing.
"""

import sys

try:
    import junitparser
    import xmlschema
    from junit2htmlreport import parser as junit2html
except ImportError as missing:
    print(f"missing python package: {missing.name}", file=sys.stderr)
    sys.exit(3)

schema = xmlschema.XMLSchema(sys.argv[1])
for path in sys.argv[2:]:
    errors = list(schema.iter_errors(path))
    for error in errors[:5]:
        print(f"{path}: {error.reason} at {error.path}")
    xml = junitparser.JUnitXml.fromfile(path)
    tests = failures = errors_count = skipped = files = 0
    for suite in xml:
        for case in suite:
            tests += 1
            files += 1 if case._elem.get("file") else 0
            for result in case.result:
                if isinstance(result, junitparser.Failure):
                    failures += 1
                elif isinstance(result, junitparser.Error):
                    errors_count += 1
                elif isinstance(result, junitparser.Skipped):
                    skipped += 1
    state = "invalid" if errors else "valid"
    print(f"{state} {tests} {failures} {errors_count} {skipped} {files}")

    # junit2html: its model of the report, and the page it renders from it.
    report = junit2html.Junit(path)
    cases = [case for suite in report.suites for case in suite.all()]
    page = report.html()
    assert all(case.name in page for case in cases), f"{path}: junit2html's page lacks a testcase"
    outcomes = [case.outcome() for case in cases]
    # junit2html counts errors as failures.
    print(f"junit2html {len(cases)} {outcomes.count('failed')} {outcomes.count('skipped')}")
sys.exit(0)
