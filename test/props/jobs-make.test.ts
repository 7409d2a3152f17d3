import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { toMillis } from "../../src/infra/duration.ts"
import { JOB_NAME } from "../../src/infra/jobs/contract/definition.ts"
import { type JobDefinition, JobDefinitionError, Jobs } from "../../src/infra/jobs/index.ts"

type Field = keyof JobDefinition
/** The order Jobs.make checks the fields in: the error names the first bad one. */
const ORDER: Field[] = ["name", "cron", "exclusive", "timeout", "run"]

interface Labelled {
  value: unknown
  valid: boolean
}

/** Mostly valid values, so that whole definitions pass often enough; invalid ones name their field. */
const mixed = (valid: fc.Arbitrary<unknown>, invalid: fc.Arbitrary<unknown>): fc.Arbitrary<Labelled> =>
  fc.oneof(
    { weight: 4, arbitrary: valid.map((value) => ({ value, valid: true })) },
    { weight: 1, arbitrary: invalid.map((value) => ({ value, valid: false })) },
  )

/** Anything at all, including what JSON and String() choke on: bigints, null-prototype objects. */
const anything = fc.anything({
  withBigInt: true,
  withBoxedValues: true,
  withDate: true,
  withMap: true,
  withNullPrototype: true,
  withSet: true,
})

const name = mixed(
  fc.stringMatching(/^[a-z0-9][a-z0-9._-]{0,99}$/),
  fc.oneof(
    fc.string().filter((s) => !JOB_NAME.test(s)),
    fc.constantFrom("", "-lead", ".lead", "Upper.case", "with space", "x".repeat(101), "ünïcode"),
    anything.filter((v) => typeof v !== "string"),
  ),
)

const int = (min: number, max: number) => fc.integer({ min, max }).map(String)
const validCron = fc
  .tuple(
    fc.oneof(
      fc.constant("*"),
      int(0, 59),
      int(1, 30).map((n) => `*/${n}`),
      int(0, 29).map((a) => `${a}-59`),
    ),
    fc.oneof(
      fc.constant("*"),
      int(0, 23),
      int(1, 12).map((n) => `*/${n}`),
    ),
    fc.oneof(fc.constant("*"), int(1, 28)),
    fc.oneof(fc.constant("*"), int(1, 12)),
    fc.oneof(fc.constant("*"), int(0, 6), fc.constant("1-5")),
  )
  .map((fields) => fields.join(" "))
const cron = mixed(
  validCron,
  fc.oneof(
    fc.string().filter((s) => s.trim().split(/\s+/).length !== 5),
    validCron.map((c) => `0 ${c}`),
    int(60, 999).map((m) => `${m} * * * *`),
    int(24, 99).map((h) => `0 ${h} * * *`),
    fc.constantFrom("0 3 * *", "every day at three", "* * * * * * *", "0 3 * * MON-XYZ"),
    anything.filter((v) => typeof v !== "string"),
  ),
)

const exclusive = mixed(
  fc.boolean(),
  anything.filter((v) => typeof v !== "boolean"),
)

const timeout = mixed(
  fc.oneof(
    fc.integer({ min: 1_000, max: 900_000 }),
    fc.double({ min: 999.5, max: 900_000.49, noNaN: true }),
    fc.integer({ min: 1, max: 900 }).map((n) => `${n} seconds`),
    fc.integer({ min: 1, max: 15 }).map((n) => `${n} minute${n === 1 ? "" : "s"}`),
    fc.integer({ min: 1_000, max: 900_000 }).map((n) => `${n} milliseconds`),
  ),
  fc.oneof(
    fc.integer({ min: -1e9, max: 999 }),
    fc.integer({ min: 900_001, max: 1e12 }),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 999.49, 900_000.5),
    fc.integer({ min: 16, max: 10_000 }).map((n) => `${n} minutes`),
    fc.constantFrom("soon", "", "5 min", "1 week", "-5 seconds", "0 seconds", "16 minutes"),
    anything.filter((v) => typeof v !== "number" && typeof v !== "string"),
  ),
)

const run = mixed(
  fc.func(anything),
  anything.filter((v) => typeof v !== "function"),
)

const definition = fc.record({ name, cron, exclusive, timeout, run })

describe("Jobs.make on random definitions", () => {
  it("returns a valid job or throws a JobDefinitionError naming the first bad field, never anything else", () => {
    const outcomes = { made: 0, refused: new Map<Field, number>() }
    fc.assert(
      fc.property(definition, (fields) => {
        const input = Object.fromEntries(Object.entries(fields).map(([key, { value }]) => [key, value]))
        const firstBad = ORDER.find((field) => !fields[field].valid)
        let job: ReturnType<typeof Jobs.make>
        try {
          job = Jobs.make(input as unknown as JobDefinition)
        } catch (error) {
          expect(error).toBeInstanceOf(JobDefinitionError)
          const refusal = error as JobDefinitionError
          expect(refusal.field).toBe(firstBad)
          expect(refusal.message).toMatch(new RegExp(`^job ".*": ${refusal.field} `, "s"))
          outcomes.refused.set(refusal.field, (outcomes.refused.get(refusal.field) ?? 0) + 1)
          return
        }
        expect(firstBad).toBeUndefined()
        const timeoutMs = toMillis(input.timeout) as number
        expect(job).toMatchObject({
          name: input.name,
          cron: input.cron,
          exclusive: input.exclusive,
          timeoutMs,
          leaseMs: timeoutMs + 60_000,
          run: input.run,
        })
        expect(Object.isFrozen(job)).toBe(true)
        expect(job.schedule.nextAfter(Date.UTC(2100, 0, 1))).toEqual(expect.any(Number))
        outcomes.made++
      }),
      { numRuns: 200 },
    )
    // Both branches ran, and every field was named by some refusal.
    expect(outcomes.made).toBeGreaterThan(0)
    expect([...outcomes.refused.keys()].sort()).toEqual([...ORDER].sort())
  })

  it("refuses a definition that is not an object, naming the name", () => {
    fc.assert(
      fc.property(
        anything.filter((v) => typeof v !== "object" || v === null || Array.isArray(v)),
        (input) => {
          const refusal = refusalOf(() => Jobs.make(input as JobDefinition))
          expect(refusal).toBeInstanceOf(JobDefinitionError)
          expect((refusal as JobDefinitionError).field).toBe("name")
        },
      ),
      { numRuns: 100 },
    )
  })
})

function refusalOf(make: () => unknown): unknown {
  try {
    make()
  } catch (error) {
    return error
  }
  return undefined
}
