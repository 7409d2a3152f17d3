import { describe, expect, it } from "vitest"
import { DEFAULT_DATABASE_URL } from "../../src/infra/node/database-url.ts"
import { containerSettings, SettingsError } from "../../src/infra/node/settings.ts"

describe("the container's settings", () => {
  it("default to an embedded file under .slotwise/, port 8787 on loopback and ./migrations", () => {
    expect(containerSettings({})).toEqual({
      databaseUrl: DEFAULT_DATABASE_URL,
      port: 8787,
      hostname: "127.0.0.1",
      migrations: "migrations",
      poolMax: 10,
      statementTimeoutMs: 10_000,
      connectTimeoutMs: 5_000,
    })
    expect(DEFAULT_DATABASE_URL).toBe("file:.slotwise/slotwise.db")
  })

  it("read SLOTWISE_DATABASE_URL, PORT, HOST and SLOTWISE_MIGRATIONS", () => {
    const env = {
      SLOTWISE_DATABASE_URL: "libsql://db.example",
      PORT: "0",
      HOST: "0.0.0.0",
      SLOTWISE_MIGRATIONS: "/app/m",
    }
    expect(containerSettings(env)).toEqual({
      databaseUrl: "libsql://db.example",
      port: 0,
      hostname: "0.0.0.0",
      migrations: "/app/m",
      poolMax: 10,
      statementTimeoutMs: 10_000,
      connectTimeoutMs: 5_000,
    })
  })

  it("read PostgreSQL's URL forms, its migrations twin folder, pool and timeouts", () => {
    for (const url of ["postgres://app@db:5432/app", "postgresql://app@db/app"]) {
      expect(containerSettings({ SLOTWISE_DATABASE_URL: url }).migrations).toBe("migrations/postgres")
    }
    expect(
      containerSettings({
        SLOTWISE_DATABASE_URL: "postgres://app@db/app",
        SLOTWISE_DATABASE_POOL_MAX: "4",
        SLOTWISE_DATABASE_STATEMENT_TIMEOUT: "30 seconds",
        SLOTWISE_DATABASE_CONNECT_TIMEOUT: "2000",
      }),
    ).toMatchObject({ poolMax: 4, statementTimeoutMs: 30_000, connectTimeoutMs: 2_000 })
  })

  it("refuse a pool size or timeout out of range, naming the variable", () => {
    for (const SLOTWISE_DATABASE_POOL_MAX of ["0", "ten", "2.5"]) {
      expect(() => containerSettings({ SLOTWISE_DATABASE_POOL_MAX })).toThrow(/^SLOTWISE_DATABASE_POOL_MAX must be/)
    }
    for (const SLOTWISE_DATABASE_STATEMENT_TIMEOUT of ["10", "soon", "2 hours"]) {
      expect(() => containerSettings({ SLOTWISE_DATABASE_STATEMENT_TIMEOUT })).toThrow(
        /^SLOTWISE_DATABASE_STATEMENT_TIMEOUT must be/,
      )
    }
    expect(() => containerSettings({ SLOTWISE_DATABASE_CONNECT_TIMEOUT: "-1" })).toThrow(
      /^SLOTWISE_DATABASE_CONNECT_TIMEOUT must be/,
    )
  })

  it("refuse a PORT that is not a port, naming it", () => {
    for (const PORT of ["http", "-1", "65536", "80.5"]) {
      expect(() => containerSettings({ PORT })).toThrow(SettingsError)
      expect(() => containerSettings({ PORT })).toThrow(/^PORT must be an integer from 0 to 65535/)
    }
  })
})
