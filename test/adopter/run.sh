#!/usr/bin/env bash
# The adopter matrix (`npm run test:adopter`, in CI): Workers of their own, copied out of this repository (so nothing
# resolves to its node_modules) and given the packed tarball as docs/add-to-a-worker.md says. Each runs strict tsc, `wrangler deploy
# --dry-run` under the budget, then under `wrangler dev` the heartbeat fired by `slotwise-heartbeat` runs a job. Each
# supported value is covered once, and each Worker shape init wires, in these runs:
#   lowest-node  the adopter in this folder with wrangler.toml, on the lowest Node.js slotwise states (engines.node,
#                from npm's `node` package), installed by the guide's install lines as npm resolves them on that Node
#                (today's wrangler, Workers types, TypeScript and Hono), then dev-check.mjs
#   lowest       the same adopter with wrangler.jsonc, from its lockfile: the lowest wrangler, Workers types and Hono
#                slotwise states, on this repository's Node; the guide's later upgrade resolves without ERESOLVE
#   init-toml    create-cloudflare's hello world (c3/) with wrangler.toml: the guide's install lines, `npx slotwise init`
#                (its dry run writes nothing, a second run changes nothing), then init-check.mjs
#   init-jsonc   the same with wrangler.jsonc
#   init-scheduled, init-durable-object, init-hono  create-cloudflare's "Scheduled Worker" (`--type scheduled`: its own
#                scheduled() on "* * * * *"), "hello-world-durable-object" (its own Durable Object and migration v1)
#                and Hono (`export default app`, `wrangler types --env-interface CloudflareBindings`) templates, each in
#                the JSONC config create-cloudflare gives it, from the create-cloudflare package (c3-template.mjs):
#                init, the steps it prints, then init-check.mjs with the template's own routes, cron and Durable Object
#   init-hand-written  the hello world with hand-written.jsonc (comments, one-line arrays, env.staging with its own
#                triggers, D1, Durable Objects and migrations), saved with a byte order mark and CRLF: the same, and
#                `wrangler deploy --dry-run --env staging`, whose config must hold the heartbeat's cron, DB and SCHEDULES
# c3/ is what create-cloudflare 2.74.0 writes for `npm create cloudflare@2.74.0 hello-c3 -- --type=hello-world
# --lang=ts` (package.json, its lockfile, tsconfig.json, src/index.ts, .gitignore, wrangler.jsonc); its wrangler.toml is
# the same template through create-cloudflare's own TOML path (the template's wrangler.jsonc given as wrangler.toml).
# Every command the guide (docs/add-to-a-worker.md) shows is run through `guide`, which fails unless the guide shows it
# word for word. The variants run at once, each in its own folder and ports; one npm cache, one tarball, one install for
# every init variant (c3/'s, linked). Usage: run.sh [variant...] (default: all).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export WRANGLER_SEND_METRICS=false CI=true
# The adopters are projects of their own: this repository's .npmrc (save-exact) must not reach their npm.
unset npm_config_save_exact

# What docs/limits.md promises: the hot code of the Worker's deploy bundle under this many KiB gzip.
BUDGET_KIB=100
ALL="lowest-node lowest init-toml init-jsonc init-scheduled init-durable-object init-hono init-hand-written"
# Each init variant's create-cloudflare template (init-toml and init-jsonc: c3/, its hello world).
declare -A TEMPLATE=([init-scheduled]=scheduled [init-durable-object]=hello-world-durable-object [init-hono]=hono)
manifest() { node -p "require('$root/package.json').$1"; }
LOWEST_NODE=$(manifest 'engines.node.replace(/^>=/, "")')
variants=${*:-$ALL}
for variant in $variants; do
  case " $ALL " in *" $variant "*) ;; *) echo "usage: run.sh [$(echo "$ALL" | tr ' ' '|')]..." >&2 && exit 2 ;; esac
done
wants() { case " $variants " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }

work=$(mktemp -d "${TMPDIR:-/tmp}/slotwise-adopter-XXXXXX")
trap 'cleanup_start=$SECONDS; rm -rf "$work"; echo "cleanup $((SECONDS - cleanup_start)) s"' EXIT
mkdir "$work/logs"
start=$SECONDS
quiet=(--no-audit --no-fund --loglevel=error)
# The tarball is built while the variants install what does not need it; tarball() waits for it.
mkdir "$work/pack"
(cd "$root" && npm pack --silent --pack-destination "$work/pack" | tail -n 1 >"$work/pack.name") >"$work/logs/pack.log" 2>&1 &
pack=$!
tarball() {
  while [ ! -s "$work/pack.name" ]; do
    kill -0 "$pack" 2>/dev/null || [ -s "$work/pack.name" ] || fail "npm pack failed: $(cat "$work/logs/pack.log")"
    sleep 1
  done
  echo "$work/pack/$(cat "$work/pack.name")"
}

# Runs a command docs/add-to-a-worker.md shows, word for word; a second argument is what runs instead (the tarball
# for the unpublished package, quieter npm output, or `:` for a command dev-check.mjs or init-check.mjs runs).
guide() {
  node "$here/guide-command.mjs" "$root/docs/add-to-a-worker.md" "$1"
  echo "\$ $1"
  eval "${2-$1}"
}
fail() { echo "adopter: $*" >&2 && exit 1; }
version() { node -p "require('./node_modules/$1/package.json').version"; }
satisfies() { node -e "process.exit(require('$root/node_modules/semver').satisfies(process.argv[1], process.argv[2]) ? 0 : 1)" "$@"; }

# One Hono (the Worker's, which slotwise shares as a peer), then the deploy bundle under the budget.
one_hono_and_budget() {
  local copies built gzip
  copies=$(find -L node_modules \( -path node_modules/hono/package.json -o -path '*/node_modules/hono/package.json' \))
  [ "$(printf '%s' "$copies" | grep -c .)" = 1 ] || fail "not one hono: ${copies:-none}"
  built=$(node_modules/.bin/wrangler deploy --dry-run --outdir "$PWD/.dist" 2>&1) || fail "the dry run failed: $built"
  gzip=$(printf '%s\n' "$built" | sed -n 's/.*gzip: \([0-9.]*\) KiB.*/\1/p' | tail -n 1)
  [ -n "$gzip" ] || fail "no gzip size in the dry run's output: $built"
  # The budget is the hot code's (docs/limits.md): the Worker's bundler inlines what slotwise imports on demand
  # (admin/browser-only.js: the dashboard's script and style, the OpenAPI document), so their own gzip sizes, as the
  # package ships them, are taken off the whole upload's. An estimate (gzip shares nothing across them), read only.
  local hot
  hot=$(node -e '
    const { gzipSync } = require("node:zlib"), { readFileSync } = require("node:fs")
    const lazy = ["dashboard-script.generated.js", "openapi.generated.js"]
      .map((name) => gzipSync(readFileSync(require.resolve("slotwise/package.json").replace(/package\.json$/, "dist/admin/" + name))).length)
    console.log((Number(process.argv[1]) - lazy.reduce((a, b) => a + b, 0) / 1024).toFixed(2))' "$gzip") ||
    fail "could not size slotwise's on-demand modules"
  node -e 'process.exit(Number(process.argv[1]) <= Number(process.argv[2]) ? 0 : 1)' "$hot" "$BUDGET_KIB" ||
    fail "the dry-run bundle's hot code is about $hot KiB gzip, over $BUDGET_KIB KiB (the whole upload $gzip KiB)"
  echo "wrangler deploy --dry-run: hot code about $hot KiB gzip (budget $BUDGET_KIB KiB), the whole upload $gzip KiB, on hono $(version hono)"
}

# The adopter in this folder, with one of its two configs, into $1.
copy_adopter() {
  local dest=$1 config=$2
  mkdir "$dest"
  tar -C "$here" --exclude=./node_modules --exclude=./.wrangler --exclude=./.dev.vars --exclude=./c3 \
    --exclude=./worker-configuration.d.ts -cf - . | tar -C "$dest" -xf -
  rm "$dest/$([ "$config" = wrangler.toml ] && echo wrangler.jsonc || echo wrangler.toml)"
}

# The guide's hand-written steps on the installed adopter, then dev-check.mjs.
adopter_steps() {
  echo "node $(node --version), wrangler $(version wrangler), @cloudflare/workers-types" \
    "$(version @cloudflare/workers-types), typescript $(version typescript), hono $(version hono)"
  satisfies "$(version wrangler)" "$(manifest 'peerDependencies.wrangler')" || fail "wrangler is outside slotwise's range"
  guide "npx slotwise-migrations migrations"
  guide 'echo "ADMIN_TOKEN=$(openssl rand -hex 24)" > .dev.vars'
  guide "npx wrangler types --include-runtime=false" "npx wrangler types --include-runtime=false >/dev/null"
  node_modules/.bin/tsc -p tsconfig.json
  echo "tsc: strict, skipLibCheck false: clean"
  one_hono_and_budget
  guide "npx wrangler d1 migrations apply DB --local" "npx wrangler d1 migrations apply DB --local >/dev/null"
  guide "npx wrangler dev" ":"
  guide "npx slotwise-heartbeat" ":"
  node dev-check.mjs
}

variant_lowest_node() {
  # npm's `node` package installs the binary by its own install script, which npm runs only where allowed.
  mkdir "$work/node-lowest"
  echo '{ "private": true, "allowScripts": { "node": true } }' >"$work/node-lowest/package.json"
  (cd "$work/node-lowest" && npm install "${quiet[@]}" --no-save "node@$LOWEST_NODE")
  copy_adopter "$work/lowest-node" wrangler.toml
  cd "$work/lowest-node"
  # A Worker that has none of these yet: the guide's install lines resolve them all, as npm does on this Node.
  node -e 'const fs = require("fs"), p = JSON.parse(fs.readFileSync("package.json")); delete p.devDependencies
    fs.writeFileSync("package.json", JSON.stringify(p, null, 2))'
  rm package-lock.json
  export PATH="$work/node-lowest/node_modules/.bin:$PATH"
  [ "$(node --version)" = "v$LOWEST_NODE" ] || fail "node is $(node --version), not the lowest stated ($LOWEST_NODE)"
  local packed
  packed=$(tarball)
  guide "npm install slotwise hono" "npm install ${quiet[*]} $packed hono"
  guide "npm install -D wrangler@^4.156.2 @cloudflare/workers-types@^5.20261103.1 typescript" \
    "npm install ${quiet[*]} -D wrangler@^4.156.2 @cloudflare/workers-types@^5.20261103.1 typescript"
  adopter_steps
}

variant_lowest() {
  copy_adopter "$work/lowest" wrangler.jsonc
  cd "$work/lowest"
  local name lowest locked
  # The lockfile holds the floor of each range slotwise states.
  for name in hono wrangler @cloudflare/workers-types; do
    lowest=$(node -p "require('$root/node_modules/semver').minVersion('$(manifest "peerDependencies['$name']")').version")
    locked=$(node -p "require('./package-lock.json').packages['node_modules/$name'].version")
    [ "$locked" = "$lowest" ] || fail "the lockfile pins $name $locked, slotwise's floor is $lowest"
  done
  # The lockfile's versions, from npm's cache where it has them (--prefer-offline asks the registry nothing new).
  npm ci "${quiet[@]}" --prefer-offline
  # The guide's install before the package is published: the packed tarball, as a dependency.
  local packed
  packed=$(tarball)
  npm install "${quiet[@]}" --prefer-offline "$packed"
  # A later upgrade, with wrangler alone as the issue tried it and as the guide says (both): no ERESOLVE.
  upgrade_resolves "npm install -D wrangler@latest"
  guide "npm install -D wrangler@latest @cloudflare/workers-types@latest" \
    'upgrade_resolves "npm install -D wrangler@latest @cloudflare/workers-types@latest"'
  adopter_steps
}

# An upgrade command resolves (npm install --package-lock-only) on a copy of the Worker's package.json and lockfile.
upgrade_resolves() {
  local scratch
  scratch=$(mktemp -d "$work/upgrade-XXXX")
  cp package.json package-lock.json "$scratch/"
  (cd "$scratch" && $1 --package-lock-only "${quiet[@]}") || fail "$1 stopped"
  echo "$1: resolves (wrangler $(node -p "require('$scratch/package-lock.json').packages['node_modules/wrangler'].version"))"
}

# The files of the project in $1 (not node_modules or .wrangler), as one checksum.
tree_sum() {
  (cd "$1" && find . \( -path ./node_modules -o -path ./.wrangler \) -prune -o -type f -print0 | sort -z |
    xargs -0 sha1sum | sha1sum)
}

c3_base() {
  mkdir "$work/c3"
  tar -C "$here/c3" -cf - . | tar -C "$work/c3" -xf -
  cd "$work/c3"
  npm ci "${quiet[@]}" --prefer-offline
  local packed
  packed=$(tarball)
  guide "npm install slotwise hono" "npm install ${quiet[*]} --prefer-offline $packed hono"
  guide "npm install -D wrangler@^4.156.2 @cloudflare/workers-types@^5.20261103.1 typescript" \
    "npm install ${quiet[*]} --prefer-offline -D wrangler@^4.156.2 @cloudflare/workers-types@^5.20261103.1 \
      typescript"
}

variant_init() {
  local config=$1 dir="$work/init-${1#wrangler.}"
  mkdir "$dir"
  (cd "$work/c3" && tar --exclude=./node_modules -cf - .) | tar -C "$dir" -xf -
  rm "$dir/$([ "$config" = wrangler.toml ] && echo wrangler.jsonc || echo wrangler.toml)"
  init_steps "$dir" hello-world
}

# The hello world with hand-written.jsonc, saved with a byte order mark and CRLF; staging deployable after init.
variant_hand_written() {
  local dir="$work/init-hand-written"
  mkdir "$dir"
  (cd "$work/c3" && tar --exclude=./node_modules --exclude=./wrangler.toml -cf - .) | tar -C "$dir" -xf -
  node -e 'const fs = require("fs"); const text = fs.readFileSync(process.argv[1], "utf8")
    fs.writeFileSync(process.argv[2], "\ufeff" + text.replace(/\n/g, "\r\n"))' "$here/hand-written.jsonc" "$dir/wrangler.jsonc"
  init_steps "$dir" hello-world
  node -e 'const { parse } = require(process.argv[1]); const fs = require("fs"); const raw = fs.readFileSync("wrangler.jsonc", "utf8")
    if (!raw.startsWith("\ufeff") || raw.slice(1).replace(/\r\n/g, "").includes("\n")) throw new Error("the BOM or CRLF was lost")
    const staging = parse(raw.slice(1)).env.staging
    const ok = staging.triggers.crons.includes("* * * * *") && staging.d1_databases.some((b) => b.binding === "DB") &&
      staging.durable_objects.bindings.some((b) => b.name === "SCHEDULES") && staging.migrations.length === 1
    if (!ok) throw new Error("env.staging lacks what slotwise needs: " + JSON.stringify(staging))' "$root/node_modules/jsonc-parser"
  node_modules/.bin/wrangler deploy --dry-run --env staging --outdir "$PWD/.dist-staging" >/dev/null ||
    fail "wrangler deploy --dry-run --env staging failed"
  echo "env.staging: the heartbeat's cron, DB and SCHEDULES of its own; wrangler deploy --dry-run --env staging: ok"
}

# A create-cloudflare template (c3-template.mjs) with its JSONC config, on c3/'s shared install.
variant_template() {
  local template=$1 dir="$work/$2"
  mkdir "$dir"
  node "$here/c3-template.mjs" "$template" "$dir"
  init_steps "$dir" "$template"
}

# `npx slotwise init` and the steps it prints, in $1 (template $2), on c3/'s shared install; then init-check.mjs.
init_steps() {
  local dir=$1 template=$2 before output
  # The shared install, linked: nothing under node_modules is written after it (wrangler keeps its state in .wrangler).
  ln -s "$work/c3/node_modules" "$dir/node_modules"
  cp "$here/init-check.mjs" "$here/wrangler-dev.mjs" "$dir/"
  cd "$dir"
  echo "$template: node $(node --version), wrangler $(version wrangler), typescript $(version typescript), hono $(version hono)"
  before=$(tree_sum .)
  guide "npx slotwise init --dry-run"
  [ "$(tree_sum .)" = "$before" ] || fail "slotwise init --dry-run wrote to the Worker"
  guide "npx slotwise init"
  before=$(tree_sum .)
  output=$(node_modules/.bin/slotwise init)
  [ "$(tree_sum .)" = "$before" ] && [[ $output == *"nothing changed"* ]] || fail "a second init changed: $output"
  echo "a second slotwise init: $output"
  # Each template has create-cloudflare's typegen script, which init prints (Hono's keeps --env-interface).
  guide "npm run cf-typegen" "npm run cf-typegen >/dev/null"
  node_modules/.bin/tsc --noEmit
  if [ "$template" != hono ]; then
    # slotwise's declarations checked too (create-cloudflare skips .d.ts files), on the runtime types wrangler wrote.
    node_modules/.bin/tsc --noEmit --skipLibCheck false --types ./worker-configuration.d.ts
  fi
  echo "tsc: the template's tsconfig (strict)$([ "$template" != hono ] && echo ", and skipLibCheck false on wrangler's runtime types"): clean"
  one_hono_and_budget
  guide "npx wrangler d1 migrations apply DB --local" "npx wrangler d1 migrations apply DB --local >/dev/null"
  node init-check.mjs "$template"
}

# Each variant in the background, its output in its own log; the two init variants after their shared install.
declare -A pids
launch() {
  local name=$1
  shift
  (
    began=$SECONDS
    "$@"
    # `times`' second line: the user and system CPU of the processes the variant ran.
    times >"$work/$name.cpu"
    echo "== $name passed in $((SECONDS - began)) s (cpu, user and system: $(sed -n 2p "$work/$name.cpu"))"
  ) >"$work/logs/$name.log" 2>&1 &
  pids[$name]=$!
}
wants lowest-node && launch lowest-node variant_lowest_node
wants lowest && launch lowest variant_lowest
init_all=""
for variant in init-toml init-jsonc init-hand-written "${!TEMPLATE[@]}"; do
  wants "$variant" && init_all="$init_all $variant"
done
if [ -n "$init_all" ]; then
  init_variants() {
    c3_base
    local variant pid status=0
    declare -A inits
    for variant in $init_all; do
      # At most INIT_JOBS at once (default: the machine's cores): each runs tsc, wrangler and workerd, and more at
      # once than cores only slows every one of them towards its commands' time bounds.
      while [ "$(jobs -rp | wc -l)" -ge "${INIT_JOBS:-$(nproc)}" ]; do sleep 1; done
      case $variant in
        init-toml) (variant_init wrangler.toml) ;;
        init-jsonc) (variant_init wrangler.jsonc) ;;
        init-hand-written) (variant_hand_written) ;;
        *) (variant_template "${TEMPLATE[$variant]}" "$variant") ;;
      esac >"$work/logs/$variant.log" 2>&1 &
      inits[$variant]=$!
    done
    for pid in "${inits[@]}"; do wait "$pid" || status=1; done
    return "$status"
  }
  launch c3 init_variants
fi

status=0
for name in "${!pids[@]}"; do wait "${pids[$name]}" || status=1; done
wait "$pack" || status=1
for log in "$work"/logs/*.log; do
  echo "==== $(basename "$log" .log)"
  cat "$log"
done
echo "adopter matrix ($variants): $([ "$status" = 0 ] && echo passed || echo FAILED) in $((SECONDS - start)) s"
exit "$status"
