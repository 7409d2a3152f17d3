#!/usr/bin/env bash
# The adopter: a Worker of its own (package.json, package-lock.json: its own hono, wrangler, typescript and
# Workers types) whose src, wrangler.toml, tsconfig.json and migrations are README's adopter snippets. It is
# copied outside this repository (so nothing resolves to the repository's node_modules), installed with
# `npm ci`, then given the packed tarball as README says, and checked on two Hono versions: the lowest the
# peer range declares (the lockfile's) and the newest. Each: one copy of hono, strict tsc with skipLibCheck
# off, `wrangler deploy --dry-run` under the budget, then dev-check.mjs against `wrangler dev`.
# Usage: run.sh [lowest|newest|both] (default both). Run by `npm run test:adopter`.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export WRANGLER_SEND_METRICS=false CI=true

# The newest Hono this adopter is proven on; the lowest is the peer range's floor and the lockfile's pin.
NEWEST_HONO=4.13.19
LOWEST_HONO=$(node -p 'require(process.argv[1]).peerDependencies.hono.replace(/^\^/, "")' "$root/package.json")
# What README promises: the Worker's deploy bundle, minified, under this many KiB gzip.
BUDGET_KIB=100
variants=${1:-both}
case "$variants" in lowest | newest | both) ;; *) echo "usage: run.sh [lowest|newest|both]" >&2 && exit 2 ;; esac

work=$(mktemp -d "${TMPDIR:-/tmp}/slotwise-adopter-XXXXXX")
trap 'rm -rf "$work"' EXIT
tarball="$work/$(cd "$root" && npm pack --silent --pack-destination "$work" | tail -n 1)"
mkdir "$work/adopter"
tar -C "$here" --exclude=node_modules --exclude=.wrangler --exclude=.dev.vars -cf - . | tar -C "$work/adopter" -xf -
cd "$work/adopter"

locked=$(node -p 'require("./package.json").devDependencies.hono')
[ "$locked" = "$LOWEST_HONO" ] || { echo "adopter: package.json pins hono $locked, the peer range's floor is $LOWEST_HONO" >&2 && exit 1; }
npm ci --no-audit --no-fund --loglevel=error
# README's install before the package is published: the packed tarball, as a dependency.
npm install --no-audit --no-fund --loglevel=error "$tarball"
npx --no-install slotwise-migrations migrations
# README's .dev.vars: the admin token wrangler dev reads (never committed).
printf 'ADMIN_TOKEN=%s\n' "$(node -p 'require("node:crypto").randomBytes(24).toString("hex")')" >.dev.vars

variant() {
  local hono=$1
  echo "== adopter on hono $hono"
  local installed copies
  installed=$(node -p 'require("./node_modules/hono/package.json").version')
  [ "$installed" = "$hono" ] || { echo "adopter: hono $installed installed, expected $hono" >&2 && return 1; }
  # One Hono: the Worker's, which slotwise (a peer) shares.
  copies=$(npm ls hono --all --parseable | sort -u)
  [ "$(printf '%s\n' "$copies" | wc -l)" = 1 ] || { echo "adopter: more than one hono:" >&2 && printf '%s\n' "$copies" >&2 && return 1; }
  npx --no-install wrangler types --include-runtime=false >/dev/null
  npx --no-install tsc -p tsconfig.json
  echo "tsc: strict, skipLibCheck false: clean"
  local built gzip
  built=$(npx --no-install wrangler deploy --dry-run --outdir "$work/dist" 2>&1) || { echo "$built" >&2 && return 1; }
  gzip=$(printf '%s\n' "$built" | sed -n 's/.*gzip: \([0-9.]*\) KiB.*/\1/p' | tail -n 1)
  [ -n "$gzip" ] || { echo "$built" >&2 && echo "adopter: no gzip size in the dry run's output" >&2 && return 1; }
  node -e 'process.exit(Number(process.argv[1]) <= Number(process.argv[2]) ? 0 : 1)' "$gzip" "$BUDGET_KIB" ||
    { echo "adopter: the dry-run bundle is $gzip KiB gzip, over $BUDGET_KIB KiB" >&2 && return 1; }
  echo "wrangler deploy --dry-run: $gzip KiB gzip (budget $BUDGET_KIB KiB)"
  rm -rf .wrangler
  node dev-check.mjs
}

if [ "$variants" != newest ]; then variant "$LOWEST_HONO"; fi
if [ "$variants" != lowest ]; then
  npm install --no-audit --no-fund --loglevel=error --save-exact "hono@$NEWEST_HONO"
  variant "$NEWEST_HONO"
fi
