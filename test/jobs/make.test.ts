import { describe, expect, it } from "vitest"
import { type JobDefinition, JobDefinitionError, Jobs } from "../../src/infra/jobs/index.ts"

const valid: JobDefinition = { name: "ok.job", cron: "0 3 * * *", exclusive: true, timeout: "5 minutes", run: () => {} }

const failure = (override: Partial<Record<keyof JobDefinition, unknown>>) => {
  try {
    Jobs.make({ ...valid, ...override } as JobDefinition)
  } catch (error) {
    return error as JobDefinitionError
  }
  throw new Error("Jobs.make accepted an invalid definition")
}

describe("Jobs.make", () => {
  it("accepts a valid job and derives its lease from the timeout", () => {
    const job = Jobs.make(valid)
    expect(job).toMatchObject({ name: "ok.job", timeoutMs: 300_000, leaseMs: 360_000, exclusive: true })
    expect(Object.isFrozen(job)).toBe(true)
  })

  it.each([
    ["1 second", 1_000],
    ["30 seconds", 30_000],
    ["1 minute", 60_000],
    ["15 minutes", 900_000],
    [2_500, 2_500],
  ])("reads the timeout %j as %d ms", (timeout, ms) => {
    expect(Jobs.make({ ...valid, timeout: timeout as JobDefinition["timeout"] }).timeoutMs).toBe(ms)
  })

  it.each([
    ["name", "Billing.Close", /job "Billing.Close": name must match/],
    ["name", "-leading-dash", /^job "-leading-dash": name must match/],
    ["name", "x".repeat(101), new RegExp(`^job "${"x".repeat(101)}": name must match`)],
    ["name", "", /job "": name must match/],
    ["cron", "not a cron", /job "ok.job": cron .*must have exactly 5 fields/],
    ["cron", "61 * * * *", /job "ok.job": cron .*not a valid cron/],
    ["cron", "0 0 3 * * *", /job "ok.job": cron .*seconds field/],
    ["timeout", 999, /job "ok.job": timeout must be between 1 second and 15 minutes/],
    ["timeout", "16 minutes", /job "ok.job": timeout must be between 1 second and 15 minutes/],
    ["timeout", "soon", /job "ok.job": timeout must be milliseconds or a string/],
    ["exclusive", "yes", /job "ok.job": exclusive must be true or false/],
    ["run", undefined, /job "ok.job": run must be a function/],
  ] as const)("rejects %s = %j naming the job and the field", (field, value, message) => {
    const error = failure({ [field]: value })
    expect(error).toBeInstanceOf(JobDefinitionError)
    expect(error.field).toBe(field)
    expect(error.message).toMatch(message)
  })
})
