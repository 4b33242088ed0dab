"""Adds up the JUnit XML reports of lit and pytest into one closing line.

Exits non-zero when a test failed or when no test ran at all, so a suite that
silently found nothing is a failure.
"""

import sys
import xml.etree.ElementTree as ET


def count(path: str) -> tuple[int, int, int]:
    root = ET.parse(path).getroot()
    suites = [root] if root.tag == "testsuite" else root.findall("testsuite")
    tests = failed = skipped = 0
    for suite in suites:
        tests += int(suite.get("tests", 0))
        failed += int(suite.get("failures", 0)) + int(suite.get("errors", 0))
        skipped += int(suite.get("skipped", 0))
    return tests, failed, skipped


def main(paths: list[str]) -> int:
    tests = failed = skipped = 0
    for path in paths:
        t, f, s = count(path)
        tests, failed, skipped = tests + t, failed + f, skipped + s
    passed = tests - failed - skipped
    print(f"total: {passed} passed, {failed} failed, {skipped} skipped")
    if tests == 0:
        print("no test ran: that is a failure")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
