#!/usr/bin/env bash
# Fails when a file is not formatted (npm test runs it before the suite).
#   JS, TS, JSON, HTML: Prettier with .prettierrc.json (npm run format fixes them).
#   C: clang-format with .clang-format, once the tree has one: through the C
#   side's own check script when it exists, else clang-format --dry-run -Werror.
set -euo pipefail
cd "$(dirname "$0")/.."

# What Prettier checks; .prettierignore leaves out generated files and Markdown.
PRETTIER_PATHS=(src/js tests bench web examples .prettierrc.json package.json)
npx --no-install prettier --check --log-level warn --no-error-on-unmatched-pattern "${PRETTIER_PATHS[@]}" \
    || { echo "format-check: run 'npm run format' to format the files above" >&2; exit 1; }

if [ -f tests/format-check-c.sh ]; then
    bash tests/format-check-c.sh
elif [ -f .clang-format ]; then
    command -v clang-format >/dev/null || { echo "format-check: clang-format is missing (Debian: apt-get install clang-format)" >&2; exit 1; }
    find src tests bench -name '*.[ch]' -print0 | xargs -0 clang-format --dry-run -Werror
else
    echo "format-check: no .clang-format yet, C files are not checked" >&2
fi
