#!/usr/bin/env bash
# mypy --strict over the package. mypy can't follow the package-dir mapping of an editable
# install, so lay the package out with symlinks in a temporary root and check it there.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
root="$(mktemp -d)"
trap 'rm -rf "$root"' EXIT
mkdir -p "$root/manasolver"
for top in "$repo"/package/*.py "$repo/package/py.typed"; do
    ln -s "$top" "$root/manasolver/$(basename "$top")"
done
ln -s "$repo/models" "$root/manasolver/models"
ln -s "$repo/solver" "$root/manasolver/solver"
ln -s "$repo/benchmarks" "$root/manasolver/benchmarks"
cd "$root"
# the cache stays in the checkout (.mypy_cache, ignored by git): a run after a small change checks
# only what the change touches (a second run: under a second against some 25)
python -m mypy --strict --ignore-missing-imports --cache-dir "$repo/.mypy_cache" -p manasolver "$@"
