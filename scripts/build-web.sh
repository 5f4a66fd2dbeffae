#!/usr/bin/env bash
# Builds the page library's minified module and checks its types, with Debian's tools only (no
# network): esbuild makes web/dist/gestured.min.js and its source map from web/gestured.js (and
# examples/web/ gets a copy, as a page that copies the module would); tsc (node-typescript)
# type-checks the typed sample page web/types/sample.ts against web/gestured.d.ts with
# --noEmit, and must reject every line of web/types/mistakes.ts marked "error:" and no other.
#
# usage: scripts/build-web.sh           build and write web/dist/ and examples/web/gestured.min.js*
#        scripts/build-web.sh --check   build into a temporary tree and fail if the committed
#                                       files differ from it (what the tests run)
set -euo pipefail
cd "$(dirname "$0")/.."
check=false
[ "${1:-}" = "--check" ] && check=true

# The tools: Debian's esbuild and node-typescript (which brings Debian's nodejs), installed when
# missing, as scripts/setup-deps.sh does for the build's packages.
missing=()
command -v esbuild >/dev/null 2>&1 || missing+=(esbuild)
command -v tsc >/dev/null 2>&1 || missing+=(node-typescript)
if ((${#missing[@]})); then
    echo "build-web: installing ${missing[*]}" >&2
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    export DEBIAN_FRONTEND=noninteractive
    $sudo apt-get update -qq
    $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

# Built in a temporary copy of the tree's shape, so that the source map's relative paths are
# the same whether the result is committed or compared.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/web/dist"
cp web/gestured.js "$work/web/gestured.js"
(cd "$work/web" && esbuild gestured.js --minify --sourcemap --format=esm --target=es2020 \
    --log-level=warning --outfile=dist/gestured.min.js)
echo "ok: esbuild $(esbuild --version): web/dist/gestured.min.js $(wc -c <"$work/web/dist/gestured.min.js") bytes" \
     "(web/gestured.js $(wc -c <web/gestured.js) bytes)"

# The types, in one run of tsc: the sample compiles, and in the mistakes each line marked
# "error:" is an error and no other line is.
flags=(--noEmit --strict --target es2022 --module es2022 --moduleResolution node --lib es2022,dom)
report=$(cd web/types && tsc "${flags[@]}" sample.ts mistakes.ts || true)
if grep -q '^sample\.ts' <<<"$report" || ! grep -q '^mistakes\.ts' <<<"$report"; then
    echo "build-web: tsc on web/types/sample.ts and mistakes.ts:" >&2
    echo "$report" >&2
    exit 1
fi
echo "ok: tsc $(tsc --version | sed 's/Version //') --noEmit passes on web/types/sample.ts"
errors=$(sed -n 's/^mistakes\.ts(\([0-9]*\),.*/\1/p' <<<"$report" | sort -un | tr '\n' ' ')
expected=$(grep -n '// error:' web/types/mistakes.ts | cut -d: -f1 | sort -un | tr '\n' ' ')
if [ -z "$expected" ] || [ "$errors" != "$expected" ]; then
    echo "build-web: tsc reported errors on lines [${errors}] of web/types/mistakes.ts; the lines marked error: are [${expected}]" >&2
    exit 1
fi
echo "ok: tsc rejects exactly the $(wc -w <<<"$expected") marked mistakes of web/types/mistakes.ts (lines ${expected% })"

targets=(web/dist/gestured.min.js web/dist/gestured.min.js.map examples/web/gestured.min.js examples/web/gestured.min.js.map)
if $check; then
    stale=()
    for target in "${targets[@]}"; do
        cmp -s "$work/web/dist/$(basename "$target")" "$target" || stale+=("$target")
    done
    if ((${#stale[@]})); then
        echo "build-web: ${stale[*]} differ from a fresh build of web/gestured.js: run scripts/build-web.sh and commit" >&2
        exit 1
    fi
    echo "ok: the committed web/dist and examples/web copies equal a fresh build"
else
    mkdir -p web/dist
    for target in "${targets[@]}"; do cp "$work/web/dist/$(basename "$target")" "$target"; done
    echo "wrote ${targets[*]}"
fi
