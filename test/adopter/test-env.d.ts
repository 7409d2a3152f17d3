// The test-only bindings vitest.config.ts adds.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[]
    ADMIN_TOKEN: string
  }
}
