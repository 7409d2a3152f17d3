declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[]
    ENGINE_MIGRATIONS: import("cloudflare:test").D1Migration[]
    TEST_WRANGLER_TOML: string
  }
}
