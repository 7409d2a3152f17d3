import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { parseCron } from "../../src/infra/cron.ts"
import { validateDefinition } from "../../src/infra/schedules/contract/definition-check.ts"
import { ScheduleDefinitionError, type ScheduleField } from "../../src/infra/schedules/contract/definition-error.ts"
import { MAX_HORIZON_MS, NAME } from "../../src/infra/schedules/contract/limits.ts"
import { resetConsumers } from "../support/consumers.ts"
import { openStream, T0, type TestStream, value } from "../support/streams.ts"

const CONSUMERS = ["test.scripted", "test.quick"]
const known = (name: string) => CONSUMERS.includes(name)

/** Part of a definition: its keys, and the field a refusal must name if this part is the first bad one. */
interface Part {
  keys: Record<string, unknown>
  bad?: ScheduleField
}

/** Values as an RPC can carry them; the pure validator also gets what JSON and String() choke on. */
const carried = { withBigInt: true, withDate: true, withMap: true, withSet: true }
const anythingFor = (rpc: boolean) =>
  fc.anything(rpc ? carried : { ...carried, withBoxedValues: true, withNullPrototype: true })

/** One labelled field: valid values `validWeight` times as often as invalid ones. */
const part = (
  key: string,
  valid: fc.Arbitrary<unknown>,
  invalid: fc.Arbitrary<unknown>,
  field = key as ScheduleField,
  validWeight = 5,
): fc.Arbitrary<Part> =>
  fc.oneof(
    { weight: validWeight, arbitrary: valid.map((v) => ({ keys: v === undefined ? {} : { [key]: v } })) },
    { weight: 1, arbitrary: invalid.map((v) => ({ keys: { [key]: v }, bad: field })) },
  )

const int = (min: number, max: number) => fc.integer({ min, max })
const horizon = T0 + MAX_HORIZON_MS
const validCron = fc
  .tuple(
    fc.oneof(
      fc.constant("*"),
      int(0, 59).map(String),
      int(1, 30).map((n) => `*/${n}`),
    ),
    fc.oneof(
      fc.constant("*"),
      int(0, 23).map(String),
      int(1, 12).map((n) => `*/${n}`),
    ),
    fc.oneof(fc.constant("*"), int(1, 28).map(String)),
    fc.oneof(fc.constant("*"), int(1, 12).map(String)),
    fc.oneof(fc.constant("*"), int(0, 6).map(String), fc.constant("1-5")),
  )
  .map((fields) => fields.join(" "))
const TIMEZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Kolkata", "Australia/Lord_Howe"]

function arbitraries(rpc: boolean) {
  const anything = anythingFor(rpc)
  const notString = anything.filter((v) => typeof v !== "string")
  // An undefined timing is an absent one: it is "timing" that a refusal names then.
  const present = (arbitrary: fc.Arbitrary<unknown>) => arbitrary.filter((v) => v !== undefined)
  const duration = (min: number, max: number) =>
    fc.oneof(
      int(min, max),
      int(Math.ceil(min / 1_000), Math.floor(max / 1_000)).map((n) => `${n} seconds`),
      int(Math.ceil(min / 60_000), Math.floor(max / 60_000)).map((n) => `${n} minutes`),
      int(Math.ceil(min / 86_400_000), Math.floor(max / 86_400_000)).map((n) => `${n} days`),
    )
  const notDuration = fc.oneof(
    int(-1e9, -1),
    fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, "soon", "", "5 min", "1 week", "-5 seconds"),
    anything.filter((v) => typeof v !== "number" && typeof v !== "string"),
  )
  // A stream's real alarm fires for a time before today: the RPC runs keep every time after T0.
  const instant = fc.date({ min: new Date(rpc ? T0 : 0), max: new Date(horizon), noInvalidDate: true })

  const unknown = fc.oneof(
    { weight: 9, arbitrary: fc.constantFrom<Part>({ keys: {} }, { keys: { maxAttempt: undefined } }) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom("maxAttempt", "timeZone", "delay", "constructor", "extra"), fc.jsonValue())
        .filter(([, v]) => v !== undefined)
        .map(([key, v]): Part => ({ keys: { [key]: v }, bad: "definition" })),
    },
  )
  const id = part(
    "id",
    fc.oneof(
      fc.constantFrom("seed", "a", "b.c", "~tilde"),
      fc.stringMatching(/^[A-Za-z0-9._~-]{1,128}$/).filter((s) => NAME.test(s)),
    ),
    fc.oneof(
      fc.constantFrom("", "a/b", "with space", "x".repeat(129), "é", ".", ".."),
      fc.string().filter((s) => !NAME.test(s)),
      notString,
    ),
  )
  const consumer = part(
    "consumer",
    fc.constantFrom(...CONSUMERS),
    fc.oneof(
      fc.constantFrom("billing.nobody", "", "TEST.SCRIPTED"),
      fc.string().filter((s) => !known(s)),
      notString,
    ),
  )

  const at = part(
    "at",
    fc.oneof(
      instant.map((d) => d.getTime()),
      instant,
      instant.map((d) => d.toISOString()),
      instant.map((d) => d.toISOString().replace("Z", "+00:00")),
    ),
    fc.oneof(
      int(-1e12, -1),
      fc.double({ min: 1, max: 1e12, noInteger: true, noNaN: true }),
      int(horizon + 1, horizon + 1e12),
      fc.constant(new Date(Number.NaN)),
      instant.map((d) => d.toISOString().replace("Z", "")),
      fc.constantFrom("tomorrow", "2100-01-04", "2100-01-04 09:00Z", Number.NaN, null),
      present(anything.filter((v) => typeof v !== "number" && typeof v !== "string" && !(v instanceof Date))),
    ),
    "at",
    2,
  )
  const after = part("after", duration(0, MAX_HORIZON_MS), present(notDuration), "after", 2)
  const every = part(
    "every",
    duration(1_000, MAX_HORIZON_MS),
    fc.oneof(int(0, 999), fc.constant("500 milliseconds"), int(MAX_HORIZON_MS + 1, 1e13), present(notDuration)),
    "every",
    2,
  )
  const cron = part(
    "cron",
    validCron,
    fc.oneof(
      fc.string().filter((s) => s.trim().split(/\s+/).length !== 5),
      validCron.map((c) => `0 ${c}`),
      int(60, 999).map((m) => `${m} * * * *`),
      fc.constantFrom("0 3 * *", "every day at nine", "0 0 30 2 *", "0 25 * * *"),
      present(notString),
    ),
    "cron",
    2,
  )
  const cronTimezone = part(
    "timezone",
    fc.constantFrom(undefined, ...TIMEZONES),
    fc.oneof(fc.constantFrom("Mars/Olympus_Mons", "Europe/Nowhere", null), present(notString)),
    "timezone",
    3,
  )
  const strayTimezone = fc.oneof(
    { weight: 5, arbitrary: fc.constant<Part>({ keys: {} }) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(...TIMEZONES).map((tz): Part => ({ keys: { timezone: tz }, bad: "timezone" })),
    },
  )
  // Exactly one timing; the validator checks a stray timezone before the timing's own value.
  const oneTiming = fc.oneof(
    ...[at, after, every].map((timing) =>
      fc
        .tuple(strayTimezone, timing)
        .map(([tz, t]): Part => ({ keys: { ...tz.keys, ...t.keys }, bad: tz.bad ?? t.bad })),
    ),
    fc.tuple(cronTimezone, cron).map(([tz, c]): Part => ({ keys: { ...tz.keys, ...c.keys }, bad: tz.bad ?? c.bad })),
  )
  const timing = fc.oneof(
    { weight: 8, arbitrary: oneTiming },
    { weight: 1, arbitrary: strayTimezone.map((tz): Part => ({ keys: tz.keys, bad: "timing" })) },
    {
      weight: 1,
      arbitrary: fc.subarray(["at", "after", "every", "cron"], { minLength: 2 }).map(
        (keys): Part => ({
          keys: Object.fromEntries(keys.map((key) => [key, key === "cron" ? "0 9 * * *" : 60_000])),
          bad: "timing",
        }),
      ),
    },
  )

  const payload = part(
    "payload",
    fc.oneof(fc.constant(undefined), fc.jsonValue({ maxDepth: 3 })),
    fc.oneof(
      fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, "x".repeat(64 * 1024)),
      fc.record({ n: fc.constantFrom(Number.NaN, Number.NEGATIVE_INFINITY, undefined, 1n) }, { noNullPrototype: true }),
      fc.array(fc.constantFrom(new Date(T0), new Map([[1, 2]]), new Set([1]), 7n), { minLength: 1, maxLength: 3 }),
      fc.bigInt(),
      fc.date({ noInvalidDate: true }),
    ),
  )
  const maxAttempts = part(
    "maxAttempts",
    fc.oneof(fc.constantFrom(undefined, null), int(1, 1_000)),
    fc.oneof(
      int(-1_000, 0),
      int(1_001, 1e9),
      fc.double({ min: 1, max: 1_000, noInteger: true, noNaN: true }),
      fc.constantFrom("3", Number.NaN, true, [3], 3n),
    ),
  )

  return fc.record({ unknown, id, consumer, timing, payload, maxAttempts }).map((parts) => {
    const ordered = [parts.unknown, parts.id, parts.consumer, parts.timing, parts.payload, parts.maxAttempts]
    return {
      definition: Object.assign({}, ...ordered.map((p) => p.keys)) as Record<string, unknown>,
      bad: ordered.find((p) => p.bad !== undefined)?.bad,
    }
  })
}

type Tally = { passed: number; refused: Map<string, number> }
const tally = (): Tally => ({ passed: 0, refused: new Map() })
const count = (t: Tally, field: string) => t.refused.set(field, (t.refused.get(field) ?? 0) + 1)

describe("validateDefinition on random definitions", () => {
  it("passes or throws a ScheduleDefinitionError naming the first bad field, never anything else", () => {
    const seen = tally()
    fc.assert(
      fc.property(arbitraries(false), ({ definition, bad }) => {
        let refusal: unknown
        try {
          const spec = validateDefinition(definition, T0, known)
          expect(spec).toMatchObject({ id: definition.id, consumer: definition.consumer })
          // Stored as JSON, which has no -0: compare with the payload's own JSON round trip.
          expect(JSON.parse(spec.payload)).toEqual(JSON.parse(JSON.stringify(definition.payload ?? null)))
        } catch (error) {
          refusal = error
        }
        if (refusal === undefined) {
          expect(bad).toBeUndefined()
          seen.passed++
          return
        }
        expect(refusal).toBeInstanceOf(ScheduleDefinitionError)
        const { field, message } = refusal as ScheduleDefinitionError
        expect(field).toBe(bad)
        expect(message.startsWith(`${field} `)).toBe(true)
        count(seen, field)
      }),
      // Each of the 11 fields is the first bad one in at least ~3% of runs: 400 runs name them all.
      { numRuns: 400 },
    )
    expect(seen.passed).toBeGreaterThan(0)
    expect([...seen.refused.keys()].sort()).toEqual([
      "after",
      "at",
      "consumer",
      "cron",
      "definition",
      "every",
      "id",
      "maxAttempts",
      "payload",
      "timezone",
      "timing",
    ])
  })

  it("refuses a definition that is not a plain object, naming the definition", () => {
    fc.assert(
      fc.property(
        anythingFor(false).filter((v) => typeof v !== "object" || v === null || Array.isArray(v)),
        (input) => {
          expect(() => validateDefinition(input, T0, known)).toThrow(ScheduleDefinitionError)
          expect(() => validateDefinition(input, T0, known)).toThrow(/^definition /)
        },
      ),
      { numRuns: 100 },
    )
  })
})

describe("a stream's upsert on random definitions", () => {
  let stream: TestStream
  beforeAll(async () => {
    resetConsumers()
    stream = openStream("props-upsert")
    value(await stream.upsert({ id: "seed", consumer: "test.scripted", every: "1 hour" }))
  })

  it("answers ok or an invalid refusal naming the first bad field, and a refusal writes nothing", async () => {
    const seen = tally()
    await fc.assert(
      fc.asyncProperty(arbitraries(true), async ({ definition, bad }) => {
        const before = await stream.snapshot()
        const reply = await stream.upsert(definition)
        if (reply.ok) {
          expect(bad).toBeUndefined()
          expect(reply.value).toMatchObject({ stream: stream.name, id: definition.id, state: "scheduled" })
          seen.passed++
          return
        }
        expect(reply.error).toMatchObject({ code: "invalid", field: bad })
        expect(reply.error.message.startsWith(`${bad} `)).toBe(true)
        expect(await stream.snapshot()).toBe(before)
        count(seen, reply.error.field as string)
      }),
      { numRuns: 50 },
    )
    expect(seen.passed).toBeGreaterThan(0)
    expect(seen.refused.size).toBeGreaterThan(0)
  })
})

describe("a cron's witness day", () => {
  const special = fc.constantFrom("0 0 L * *", "0 0 * * 5#3", "0 0 29 2 *", "0 0 15W * *", "0 0 * * 5L", "0 0 30 2 1")
  it("found by the search always verifies without one, so an admin PUT never searches twice", () => {
    fc.assert(
      fc.property(fc.oneof(validCron, special), fc.constantFrom(...TIMEZONES), int(0, 400), (cron, timezone, days) => {
        const now = T0 + days * 86_400_000 + 1234
        const day = parseCron(cron, timezone).dayWithin(now, MAX_HORIZON_MS)
        expect(day).toBeTypeOf("number")
        // Another parse, as the stream makes it, a moment later.
        expect(parseCron(cron, timezone).isDayWithin(day, now + 50, MAX_HORIZON_MS)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })
})
