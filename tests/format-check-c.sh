#!/usr/bin/env bash
# Fails (exit 1) when a C file is not formatted as .clang-format says: every
# .c and .h under src, tests/native, tests/oracle, tests/fuzz and bench that git knows
# (or that is new and not ignored). Fix with: bash tests/format-check-c.sh --fix
set -euo pipefail
cd "$(dirname "$0")/.."

command -v clang-format >/dev/null || { echo "format-check-c: clang-format is missing (bash build.sh installs it)" >&2; exit 2; }

mapfile -t files < <(git ls-files --cached --others --exclude-standard -- 'src/*.[ch]' 'tests/native/*.[ch]' \
    'tests/oracle/*.[ch]' 'tests/fuzz/*.[ch]' 'bench/*.[ch]' | LC_ALL=C sort -u | while read -r f; do [ -f "$f" ] && echo "$f"; done)
[ "${#files[@]}" -gt 0 ] || { echo "format-check-c: no C files found" >&2; exit 2; }

if [ "${1:-}" = --fix ]; then
    clang-format -i "${files[@]}"
    echo "format-check-c: formatted ${#files[@]} files"
    exit 0
fi
if ! clang-format --dry-run -Werror "${files[@]}"; then
    echo "format-check-c: the files above are not formatted; run: bash tests/format-check-c.sh --fix" >&2
    exit 1
fi
echo "format-check-c: ${#files[@]} C files formatted"
