#!/usr/bin/env bash
# The adopter proves slotwise installs into an existing Worker: it packs this repository, installs the
# tarball here (nothing imports ../../src), brings in the engine's D1 migrations the way README says,
# then typechecks, builds offline and runs its tests in workerd. Run by `npm run test:adopter`.
set -euo pipefail
cd "$(dirname "$0")"
export WRANGLER_SEND_METRICS=false

rm -rf node_modules package-lock.json ./*.tgz migrations/*_slotwise_*.sql worker-configuration.d.ts
tarball=$(cd ../.. && npm pack --silent --pack-destination test/adopter | tail -n 1)
npm install --no-save --no-audit --no-fund --no-package-lock "./$tarball"
npx --no-install slotwise-migrations migrations
wrangler types --include-runtime=false --env-file=/dev/null >/dev/null
tsc -p tsconfig.json
wrangler deploy --dry-run --outdir "$(mktemp -d)"
vitest run --config vitest.config.ts
