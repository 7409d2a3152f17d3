/**
 * `npm run boundaries` (in `npm run check`) cruises twice with this file.
 *
 * The structure, type-only imports included: the engine (src/infra, the slotwise package) never imports the app, the
 * app reaches the engine only by the package's name and through its entry points, nothing under src imports tests or
 * scripts, and no module imports another in a circle.
 *
 * The runtime (SLOTWISE_CRUISE=runtime): the module graph as Node loads it, type-only imports erased. The container
 * profile (src/main.ts) and the entries it shares with Workers (portable, admin, node) never reach a cloudflare:*
 * module; only the `slotwise` Worker entry does.
 */
const options = {
  doNotFollow: { path: "node_modules" },
  exclude: { path: "^(dist|test/adopter/node_modules)" },
  tsConfig: { fileName: "tsconfig.json" },
  enhancedResolveOptions: { extensions: [".ts", ".js"] },
}

const runtime = {
  forbidden: [
    {
      name: "node-profile-loads-no-cloudflare-module",
      severity: "error",
      comment: "Keep Worker-only code (the Durable Object class, Workers tracing) behind src/infra/index.ts.",
      from: { path: "^src/(main\\.ts|infra/(portable\\.ts|admin/index\\.ts|node/index\\.ts))$" },
      to: { path: "^cloudflare:", reachable: true },
    },
  ],
  // A reachability rule follows every import, so this pass leaves out the ones Node never loads.
  options: { ...options, tsPreCompilationDeps: false },
}

const structure = {
  forbidden: [
    {
      name: "no-circular",
      severity: "error",
      comment: "An import circle: split the module the circle runs through.",
      from: {},
      to: { circular: true },
    },
    {
      name: "engine-never-imports-the-app",
      severity: "error",
      comment: "src/infra is the slotwise package: the app hands it what it declares instead.",
      from: { path: "^src/infra/" },
      to: { path: "^src/(slices/|jobs\\.ts$|consumers\\.ts$|app\\.ts$|isolate\\.ts$|main\\.ts$)" },
    },
    {
      name: "app-through-entry-points",
      severity: "error",
      comment:
        "The example app imports slotwise as a user would: its entry points src/infra/index.ts (Workers), portable.ts, admin/index.ts or node/index.ts.",
      from: { path: "^src/", pathNot: "^src/infra/" },
      to: { path: "^src/infra/", pathNot: "^src/infra/(index\\.ts|portable\\.ts|admin/index\\.ts|node/index\\.ts)$" },
    },
    {
      name: "app-by-the-package-name",
      severity: "error",
      comment:
        "The example app names the engine `slotwise`, `slotwise/admin`, `slotwise/portable` or `slotwise/node` (tsconfig.json's paths), never a relative path into src/infra.",
      from: { path: "^src/", pathNot: "^src/infra/" },
      to: { path: "^src/infra/", dependencyTypesNot: ["aliased-tsconfig-paths"] },
    },
    {
      name: "test-seams-only-in-tests",
      severity: "error",
      comment:
        "stream/testing.ts builds streams with seams no Worker may pass (a per-object clock, a sabotaged fence): only test/ and scripts/ import it.",
      from: { pathNot: "^(test|scripts)/" },
      to: { path: "^src/infra/schedules/stream/testing\\.ts$" },
    },
    {
      name: "init-is-the-command-only",
      severity: "error",
      comment:
        "src/infra/init is `npx slotwise init` (bin/slotwise.js): nothing a Worker or the container imports reaches it.",
      from: { path: "^src/", pathNot: "^src/infra/init/" },
      to: { path: "^src/infra/init/" },
    },
    {
      name: "init-parsers-stay-in-init",
      severity: "error",
      comment:
        "init's parsers and diff are dependencies only its command loads, so that they never reach a Worker's bundle.",
      from: { path: "^src/", pathNot: "^src/infra/init/" },
      to: { path: "node_modules/(jsonc-parser|toml-eslint-parser|diff|semver)/" },
    },
    {
      name: "node-databases-apart",
      severity: "error",
      comment:
        "src/infra/node has one folder per database (libsql/, postgres/) below the files that open them: neither imports the other.",
      from: { path: "^src/infra/node/(libsql|postgres)/" },
      to: { path: "^src/infra/node/(libsql|postgres)/", pathNot: "^src/infra/node/$1/" },
    },
    {
      name: "no-sibling-folder-cycles-in-the-engine",
      severity: "error",
      comment:
        "Two folders of src/infra import each other, directly or round a loop: move what both need into a folder below both (schedules/contract/ is that floor for client/, directory/ and stream/).",
      // Folder scope: each folder's imports are its modules' imports that leave it; a file directly in a parent
      // folder (src/infra/log.ts) is that parent, which imports nothing back, so shared files never close a loop.
      scope: "folder",
      from: { path: "^src/infra/" },
      to: { circular: true },
    },
    {
      name: "stream-core-stays-pure",
      severity: "error",
      comment:
        "schedules/stream/core/ is the stream's pure core: given now, it answers what to write. It reads only the pure rows below it (row.ts, jitter.ts, idempotency-key.ts), never the store, the tick or a Worker module.",
      from: { path: "^src/infra/schedules/stream/core/" },
      to: {
        path: "^(src/infra/schedules/stream/[^/]+\\.ts$|cloudflare:)",
        pathNot: "^src/infra/schedules/stream/(row|jitter|idempotency-key)\\.ts$",
      },
    },
    {
      name: "schedules-contract-imports-neither-side",
      severity: "error",
      comment:
        "schedules/contract/ is what the client, the directory and the stream share (definitions, validation, states, events, replies, views, the consumer declaration, the stream's RPC): it imports none of them.",
      from: { path: "^src/infra/schedules/contract/" },
      to: { path: "^src/infra/schedules/(client/|stream/|directory/|[^/]+\\.ts$)" },
    },
    {
      name: "schedules-client-and-directory-know-the-stream-by-its-rpc",
      severity: "error",
      comment:
        "A caller's side and the directory reach a stream through contract/rpc.ts, never its class, and never each other.",
      from: { path: "^src/infra/schedules/(client|directory)/" },
      to: { path: "^src/infra/schedules/(client|stream|directory)/", pathNot: "^src/infra/schedules/$1/" },
    },
    {
      name: "schedules-stream-never-imports-the-client",
      severity: "error",
      comment:
        "The stream is the floor above the directory, not the caller's: what it shares with callers comes from contract/.",
      from: { path: "^src/infra/schedules/stream/" },
      to: { path: "^src/infra/schedules/client/" },
    },
    {
      name: "jobs-contract-imports-no-other-room",
      severity: "error",
      comment:
        "jobs/contract/ is what every room of jobs/ shares (a job, its slot, the registry and the declared capacity, a run's record and hour entry, a pause, the queue message): it imports no other room, nor the folder's face (index.ts, namespace.ts).",
      from: { path: "^src/infra/jobs/contract/" },
      to: { path: "^src/infra/jobs/(protocol/|history/|handlers/|[^/]+\\.ts$)" },
    },
    {
      name: "jobs-protocol-and-history-side-by-side",
      severity: "error",
      comment:
        "The D1 protocol (jobs/protocol/) and what is read back (jobs/history/) both stand on contract/: neither imports the other, the handlers above them, or the folder's face.",
      from: { path: "^src/infra/jobs/(protocol|history)/" },
      to: { path: "^src/infra/jobs/(protocol/|history/|handlers/|[^/]+\\.ts$)", pathNot: "^src/infra/jobs/$1/" },
    },
    {
      name: "jobs-handlers-under-the-face",
      severity: "error",
      comment:
        "jobs/handlers/ (the heartbeat, the queue hand-off and handler, Jobs.run) is the top room: it looks down at the others, never at the folder's face (index.ts, namespace.ts), which looks at it.",
      from: { path: "^src/infra/jobs/handlers/" },
      to: { path: "^src/infra/jobs/[^/]+\\.ts$" },
    },
    {
      name: "src-never-imports-tests-or-scripts",
      severity: "error",
      from: { path: "^src/" },
      to: { path: "^(test|scripts)/" },
    },
  ],
  options: { ...options, tsPreCompilationDeps: true },
}

module.exports = process.env.SLOTWISE_CRUISE === "runtime" ? runtime : structure
