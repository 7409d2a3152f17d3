declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[]
    ENGINE_MIGRATIONS: import("cloudflare:test").D1Migration[]
    TEST_WRANGLER_TOML: string
    /** The heartbeat's queue in the tests' Worker (vitest.config.ts), consumed one message per invocation. */
    JOBS: Queue
    /** A queue nothing consumes: what the heartbeat sends to it is only sent. */
    HELD_JOBS: Queue
  }
}
