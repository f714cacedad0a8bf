#!/usr/bin/env bash
# The gates besides the tests, as .ci/run and the pre-commit hook run them: mypy --strict over the
# package (scripts/typecheck.sh) and ruff's lint ([tool.ruff] in pyproject.toml).  Both run every
# time; the exit status is 1 when either fails, and the last line names which.
# Needs the dev extra (pip install -e ".[dev]").
set -uo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cd "$repo"
failed=()
echo "gates: mypy --strict (scripts/typecheck.sh)"
scripts/typecheck.sh || failed+=("mypy")
echo "gates: ruff check"
python -m ruff check . || failed+=("ruff")
if [ ${#failed[@]} -gt 0 ]; then
    echo "gates: FAILED: ${failed[*]}"
    exit 1
fi
echo "gates: passed"
