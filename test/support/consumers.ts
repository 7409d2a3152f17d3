import { consumers as appConsumers } from "../../src/consumers.ts"
import { type Consumer, type Delivery, Schedules } from "../../src/infra/index.ts"

/** What a scripted consumer does on one attempt. */
export type Step = "ok" | "retry" | "throw" | "terminal" | "hang" | "wait" | "malformed"

/** A retry outcome whose reason a consumer overwrote with a BigInt: still an outcome, no longer well-formed. */
export const malformedOutcome = () =>
  Object.assign(Schedules.retry("overwritten"), { reason: 42n as unknown as string })

export interface Seen {
  delivery: Delivery
  aborted: () => boolean
}

/** Every delivery a test consumer saw, in order (tests share the isolate with the stream). */
export const seen: Seen[] = []
/** Per schedule id, the steps its next attempts take; "ok" once the script runs out. */
export const script = new Map<string, Step[]>()
/** Resolvers for "wait" steps, so a test decides when (and how) a delivery answers. */
export const waiting: Array<{ delivery: Delivery; answer: (value?: unknown) => void; fail: (e: unknown) => void }> = []

const run = (delivery: Delivery, signal: AbortSignal) => {
  seen.push({ delivery, aborted: () => signal.aborted })
  const step = script.get(delivery.scheduleId)?.shift() ?? "ok"
  switch (step) {
    case "ok":
      return undefined
    case "retry":
      return Schedules.retry(`scripted retry of attempt ${delivery.attempt}`)
    case "terminal":
      return Schedules.terminal("scripted terminal failure")
    case "throw":
      throw new Error(`scripted throw on attempt ${delivery.attempt}`)
    case "malformed":
      return malformedOutcome()
    case "hang":
      return new Promise(() => {})
    case "wait":
      return new Promise((answer, fail) => waiting.push({ delivery, answer, fail }))
  }
}

export const scripted = Schedules.consumer({
  name: "test.scripted",
  deliver: (delivery, { signal }) => run(delivery, signal),
})

export const quick = Schedules.consumer({
  name: "test.quick",
  timeout: 300,
  deliver: (delivery, { signal }) => run(delivery, signal),
})

/** Retries every attempt with the reason its payload names ({ reason }), or throws it as an Error ({ reason, throws: true }). */
export const refusing = Schedules.consumer({
  name: "test.refusing",
  deliver: (delivery, { signal }) => {
    seen.push({ delivery, aborted: () => signal.aborted })
    const { reason, throws } = delivery.payload as { reason: string; throws?: boolean }
    if (throws) throw new Error(reason)
    return Schedules.retry(reason)
  },
})

/**
 * Records each delivery's key and attempt in D1 (table test_deliveries, which the test
 * creates) before it follows the script, the way a consumer admits a key durably.
 */
export const durable = Schedules.consumer({
  name: "test.durable",
  deliver: async (delivery, { env, signal }) => {
    await env.DB.prepare("INSERT INTO test_deliveries (key, attempt) VALUES (?, ?)")
      .bind(delivery.idempotencyKey, delivery.attempt)
      .run()
    return run(delivery, signal)
  },
})

/** What each delivery's `ctx.once` answered, in order. */
export const onceAnswers: Array<{ key: string; attempt: number; status: string }> = []

/**
 * Counts each delivery in D1 through `ctx.once` (table test_once_counts, which the test creates: a second
 * apply would count 2), then follows the script.
 */
const counting = (name: string, timeout?: number) =>
  Schedules.consumer({
    name,
    timeout,
    deliver: async (delivery, { env, signal, once }) => {
      const count = env.DB.prepare(
        "INSERT INTO test_once_counts (key, n) VALUES (?1, 1) ON CONFLICT (key) DO UPDATE SET n = n + 1",
      ).bind(delivery.idempotencyKey)
      const { status } = await once([count])
      onceAnswers.push({ key: delivery.idempotencyKey, attempt: delivery.attempt, status })
      return run(delivery, signal)
    },
  })
export const onceCounting = counting("test.once")
export const onceQuick = counting("test.once-quick", 300)

/** The consumers of the tests' Worker (test/support/worker.ts): the app's and the scripted ones. */
export const consumers: readonly Consumer[] = [
  ...appConsumers,
  scripted,
  quick,
  refusing,
  durable,
  onceCounting,
  onceQuick,
]

/** The declared consumer of that name. */
export const consumerNamed = (name: string): Consumer | undefined => consumers.find((c) => c.name === name)

export const resetConsumers = () => {
  seen.length = 0
  script.clear()
  waiting.length = 0
  onceAnswers.length = 0
}
