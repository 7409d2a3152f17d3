#!/usr/bin/env bash
# Rebuilds this folder's two bundles of slotwise 0.1.0 (commit 4ca12a7) from its own source. They are committed
# (a clean clone may have no tags, and CI builds nothing old): run this only to remake them, from the repository's
# root, with its node_modules installed (0.1.0's runtime dependencies are the same versions: drizzle-orm 0.45.4,
# croner 11.0.1, zod 4.6.7, hono as a peer).
#   bash test/compat/0.1.0/build.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
root=$PWD
out=$root/test/compat/0.1.0
tree=$(mktemp -d)/v0.1.0
git worktree add --detach "$tree" 4ca12a7 >/dev/null
trap 'git worktree remove --force "$tree"' EXIT
ln -s "$root/node_modules" "$tree/node_modules"

# engine.js: 0.1.0's portable entry (Jobs.run with its claim, release and run history; ctx.once; the stream client)
# and the statements behind them, for D1, libSQL and PostgreSQL alike.
cat >"$tree/compat-engine.ts" <<'TS'
export * from "./src/infra/portable.ts"
export { claimSlot, listLeases, releaseSlot } from "./src/infra/jobs/lease.ts"
export { timeline } from "./src/infra/jobs/timeline.ts"
export { commitOnce } from "./src/infra/once.ts"
export { database } from "./src/infra/db/index.ts"
TS
# worker.js: 0.1.0's Worker entry (its ScheduleStream Durable Object and Schedules.durableObject), for workerd.
cat >"$tree/compat-worker.ts" <<'TS'
export { Schedules, ScheduleStream } from "./src/infra/index.ts"
export { SCHEMA_VERSION } from "./src/infra/schedules/stream/schema.ts"
TS
banner="// slotwise 0.1.0 (commit 4ca12a7), bundled by test/compat/0.1.0/build.sh: generated, do not edit."
for name in engine worker; do
  "$root/node_modules/.bin/esbuild" "$tree/compat-$name.ts" --bundle --format=esm --platform=neutral \
    --main-fields=module,main --target=es2022 --external:cloudflare:* --external:hono --external:hono/* \
    --legal-comments=none --banner:js="$banner" --log-level=warning --outfile="$out/$name.js"
done
