import { describe, expect, it } from "vitest"
import { DEFAULT_DATABASE_URL } from "../../src/infra/node/database.ts"
import { containerSettings, SettingsError } from "../../src/infra/node/settings.ts"

describe("the container's settings", () => {
  it("default to an embedded file under .slotwise/, port 8787 on loopback and ./migrations", () => {
    expect(containerSettings({})).toEqual({
      databaseUrl: DEFAULT_DATABASE_URL,
      port: 8787,
      hostname: "127.0.0.1",
      migrations: "migrations",
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
    })
  })

  it("refuse a PORT that is not a port, naming it", () => {
    for (const PORT of ["http", "-1", "65536", "80.5"]) {
      expect(() => containerSettings({ PORT })).toThrow(SettingsError)
      expect(() => containerSettings({ PORT })).toThrow(/^PORT must be an integer from 0 to 65535/)
    }
  })
})
