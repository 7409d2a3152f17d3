import type { ConsumerRegistry, Delivery } from "../../src/infra/schedules/index.ts"
import { Schedules } from "../../src/infra/schedules/schedules.ts"
import { trialReminder, usageReport, usageWebhook } from "../../src/slices/billing/index.ts"

/** What a scripted consumer does on one attempt. */
export type Step = "ok" | "retry" | "throw" | "terminal" | "hang" | "wait"

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

/** Retries every attempt with the reason its payload names ({ reason }), so a test sets the reason. */
export const refusing = Schedules.consumer({
  name: "test.refusing",
  deliver: (delivery, { signal }) => {
    seen.push({ delivery, aborted: () => signal.aborted })
    const { reason } = delivery.payload as { reason: string }
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

const declared = Schedules.consumers(() => [
  trialReminder,
  usageReport,
  usageWebhook,
  scripted,
  quick,
  refusing,
  durable,
])

/** Consumers a test took away, as a rolling deploy that briefly lacks them would. */
export const absent = new Set<string>()

export const consumers: ConsumerRegistry = {
  get: (name) => (absent.has(name) ? undefined : declared.get(name)),
  get names() {
    return declared.names.filter((name) => !absent.has(name))
  },
}

export const resetConsumers = () => {
  seen.length = 0
  script.clear()
  waiting.length = 0
  absent.clear()
}
