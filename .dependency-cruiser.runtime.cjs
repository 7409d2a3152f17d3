/**
 * `npm run boundaries`, second pass: the module graph as Node loads it (type-only imports erased).
 * The container profile (src/main.ts) and the entries it shares with Workers (portable, admin, node)
 * never reach a cloudflare:* module; only the `slotwise` Worker entry does.
 */
module.exports = {
  forbidden: [
    {
      name: "node-profile-loads-no-cloudflare-module",
      severity: "error",
      comment: "Keep Worker-only code (the Durable Object class, Workers tracing) behind src/infra/index.ts.",
      from: { path: "^src/(main\\.ts|infra/(portable\\.ts|admin/index\\.ts|node/index\\.ts))$" },
      to: { path: "^cloudflare:", reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^(node_modules|dist)" },
    tsPreCompilationDeps: false,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js"] },
  },
}
