declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[]
    ENGINE_MIGRATIONS: import("cloudflare:test").D1Migration[]
    TEST_WRANGLER_TOML: string
    /** A second D1 database, migrated by test/compat/previous-schema.test.ts to the previous release's schema only. */
    PREVIOUS_SCHEMA_DB: D1Database
    /** 0.1.0's ScheduleStream (test/support/previous-stream.ts), for the version-skew tests. */
    SCHEDULES_010: DurableObjectNamespace
    /** The heartbeat's queue in the tests' Worker (vitest.config.ts), consumed one message per invocation. */
    JOBS: Queue
    /** A queue nothing consumes: what the heartbeat sends to it is only sent. */
    HELD_JOBS: Queue
  }
}
