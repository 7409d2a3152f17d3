import { env, introspectWorkflow, introspectWorkflowInstance } from "cloudflare:test"
import { describe, expect, it } from "vitest"
import {
  type Consumer,
  ConsumerDefinitionError,
  type Delivery,
  type Outcome,
  Schedules,
} from "../../src/infra/index.ts"
import { logger } from "../../src/infra/log.ts"
import { workflowRefusal } from "../../src/infra/schedules/client/workflow-refusal.ts"
import { monthlyStatement } from "../../src/slices/statements/consumers.ts"
import { adminFetch, json } from "../support/admin.ts"
import { captureLogs } from "../support/logs.ts"
import { openStream, T0, value } from "../support/streams.ts"

captureLogs()

let keys = 0
/** A delivery of the statements schedule, occurrence 1 of a fresh stream unless told otherwise. */
const deliveryOf = (overrides: Partial<Delivery> = {}): Delivery => {
  const stream = overrides.stream ?? `wf-direct-${++keys}`
  const occurrence = overrides.occurrence ?? 1
  return {
    stream,
    scheduleId: "monthly-statement",
    occurrence,
    dueAt: new Date(T0),
    attempt: 1,
    lateByMs: 0,
    idempotencyKey: `schedule:${stream}/monthly-statement:${occurrence}`,
    payload: { account: stream },
    ...overrides,
  }
}

/** Runs a consumer's deliver as the stream does, over `env` (the Worker's unless given). */
const deliver = (consumer: Consumer, delivery: Delivery, over: Partial<Env> | Record<string, unknown> = env) =>
  Promise.resolve(
    consumer.deliver(delivery, {
      env: over as unknown as Cloudflare.Env,
      log: logger({ test: "workflow" }),
      signal: new AbortController().signal,
      once: () => Promise.reject(new Error("the workflow consumer writes nothing to D1")),
    }),
  ) as Promise<Outcome | undefined>

/** A Workflow binding whose create throws `message`; `get` finds the instance only when `exists`. */
const refusingBinding = (message: string, exists = false) => ({
  create: async () => {
    throw new Error(message)
  },
  get: async (id: string) => {
    if (exists) return { id }
    throw new Error("instance.not_found")
  },
})

describe("Schedules.workflow: a delivery starts a Workflow instance", () => {
  it("a stream's delivery creates one instance, id derived from the key, the payload and occurrence as params", async () => {
    const s = openStream("wf-stream")
    const { idempotencyKey } = value(
      await s.upsert({
        id: "monthly-statement",
        consumer: monthlyStatement.name,
        at: T0,
        payload: { account: "acme" },
      }),
    )
    const id = await Schedules.workflowInstanceId(idempotencyKey)
    await using instance = await introspectWorkflowInstance(env.STATEMENTS, id)

    const report = await s.tick(T0)

    expect(report.delivered).toBe(1)
    await instance.waitForStatus("complete")
    expect(await instance.getOutput()).toMatchObject({ account: "acme", occurrence: 1, quantity: 0 })
    expect(await instance.waitForStepResult({ name: "compose statement" })).toContain(
      `due ${new Date(T0).toISOString()}`,
    )
    expect(value(await s.get("monthly-statement")).state).toBe("completed")
  })

  it("the instance id is valid for Workflows (at most 100 of [a-zA-Z0-9_-]) and the same for the same key", async () => {
    const key = `schedule:${"s".repeat(128)}/${"i".repeat(128)}@${"f".repeat(12)}:4294967295`
    const id = await Schedules.workflowInstanceId(key)
    expect(id).toMatch(/^[a-zA-Z0-9_][a-zA-Z0-9_-]{0,99}$/)
    expect(await Schedules.workflowInstanceId(key)).toBe(id)
    expect(await Schedules.workflowInstanceId(`${key}0`)).not.toBe(id)
  })

  it("params carry the payload unchanged, the occurrence, its due time and the key", async () => {
    const delivery = deliveryOf({ occurrence: 3, payload: { account: "params-check", nested: { n: [1, 2] } } })
    const id = await Schedules.workflowInstanceId(delivery.idempotencyKey)
    await using instance = await introspectWorkflowInstance(env.STATEMENTS, id)
    // The statement steps are not under test here: the first step's mocked answer lets the instance finish at once.
    await instance.modify(async (m) => m.mockStepResult({ name: "total usage" }, { quantity: 5, throughSlot: null }))

    expect(await deliver(monthlyStatement, delivery)).toBeUndefined()

    await instance.waitForStatus("complete")
    const handle = await env.STATEMENTS.get(id)
    expect(handle.id).toBe(id)
    expect(await instance.getOutput()).toMatchObject({ account: "params-check", occurrence: 3, quantity: 5 })
  })
})

describe("Schedules.workflow: one instance per key across redeliveries", () => {
  it("delivering the same occurrence twice starts one instance and answers delivered both times", async () => {
    const delivery = deliveryOf()
    const id = await Schedules.workflowInstanceId(delivery.idempotencyKey)
    await using all = await introspectWorkflow(env.STATEMENTS)

    expect(await deliver(monthlyStatement, delivery)).toBeUndefined()
    const [first] = await all.get()
    await first?.waitForStatus("complete")
    const output = await first?.getOutput()
    // The redelivery after a lost answer: a later attempt of the same occurrence.
    expect(await deliver(monthlyStatement, { ...delivery, attempt: 2 })).toBeUndefined()

    const instances = await all.get()
    expect(instances).toHaveLength(1)
    expect((await env.STATEMENTS.get(id)).id).toBe(id)
    // The first instance ran once: its output is the one it finished with.
    expect(await instances[0]?.getOutput()).toEqual(output)
  })

  it("the next occurrence starts its own instance", async () => {
    const delivery = deliveryOf()
    await using all = await introspectWorkflow(env.STATEMENTS)

    await deliver(monthlyStatement, delivery)
    await deliver(monthlyStatement, deliveryOf({ stream: delivery.stream, occurrence: 2 }))

    expect(await all.get()).toHaveLength(2)
  })

  it("workerd's Workflows refuse an existing id with an error read as 'exists'", async () => {
    const id = `exists-check-${++keys}`
    await using instance = await introspectWorkflowInstance(env.STATEMENTS, id)
    await env.STATEMENTS.create({ id, params: deliveryOfParams(id) })
    await instance.waitForStatus("complete")

    const thrown = await env.STATEMENTS.create({ id, params: deliveryOfParams(id) }).then(
      () => undefined,
      (error: unknown) => error,
    )

    expect(thrown).toBeInstanceOf(Error)
    expect(workflowRefusal(thrown)).toEqual({ kind: "exists" })
  })
})

/** Params of a statement instance created by hand, as the consumer would build them. */
const deliveryOfParams = (account: string) => ({
  payload: { account },
  stream: account,
  scheduleId: "monthly-statement",
  occurrence: 1,
  dueAt: new Date(T0).toISOString(),
  idempotencyKey: `schedule:${account}/monthly-statement:1`,
})

describe("Schedules.workflow: a refused create is a retry or terminal", () => {
  const outcomeOf = (message: string, exists = false) =>
    deliver(monthlyStatement, deliveryOf(), { STATEMENTS: refusingBinding(message, exists) })

  it.each([
    ["(instance.invalid_id) Instance ID is invalid"],
    ["WorkflowError: params exceeds the maximum size of 1 MiB"],
    ['DataCloneError: Could not serialize object of type "Foo"'],
    ["(body) Provided argument is invalid"],
  ])("terminal when Cloudflare says the request itself is wrong: %s", async (message) => {
    const outcome = await outcomeOf(message)
    expect(outcome).toMatchObject({ status: "terminal" })
    expect(outcome?.reason).toContain(message.replace(/^\w+Error: /, ""))
  })

  it.each([
    ["Network connection lost."],
    ["rate limit exceeded: too many instances created"],
    ["internal error; reference = abc"],
    ["Workflow not found"],
  ])("retry when a later attempt may succeed: %s", async (message) => {
    expect(await outcomeOf(message)).toMatchObject({ status: "retry" })
  })

  it("an error after the instance was created (the answer lost) is delivered: the instance exists", async () => {
    expect(await outcomeOf("Network connection lost.", true)).toBeUndefined()
    expect(await outcomeOf("(instance.already_exists) Workflow instance already exists")).toBeUndefined()
  })

  it("a binding missing from env, or not a Workflow, is terminal and named", async () => {
    const missing = await deliver(monthlyStatement, deliveryOf(), { DB: env.DB })
    expect(missing).toMatchObject({ status: "terminal" })
    expect(missing?.reason).toContain('binding "STATEMENTS" is missing from env')

    const wrong = await deliver(monthlyStatement, deliveryOf(), { STATEMENTS: env.DB })
    expect(wrong).toMatchObject({ status: "terminal" })
    expect(wrong?.reason).toContain('binding "STATEMENTS" in env is not a Workflow binding')
  })
})

describe("Schedules.workflow: the declaration", () => {
  const fails = (definition: unknown, field: RegExp) =>
    expect(() => Schedules.workflow(definition as Parameters<typeof Schedules.workflow>[0])).toThrow(
      expect.objectContaining({ name: "ConsumerDefinitionError", message: expect.stringMatching(field) }),
    )

  it("names the bad field", () => {
    fails({ name: "x.wf" }, /binding must be the name of a Workflow binding/)
    fails({ name: "x.wf", binding: "MY-WORKFLOW" }, /binding must be/)
    fails({ name: "x.wf", binding: 42 }, /binding must be/)
    fails({ name: "X WF", binding: "WF" }, /name must match/)
    fails({ name: "x.wf", binding: "WF", timeout: "11 minutes" }, /timeout must be between/)
    fails({ name: "x.wf", binding: "WF", deliver: () => {} }, /deliver is not an option/)
    fails(null, /definition must be an object/)
    expect(() => Schedules.workflow({ name: "x.wf", binding: "WF" })).not.toThrow()
    expect(new ConsumerDefinitionError("x")).toBeInstanceOf(Error)
  })

  it("is an ordinary consumer: its name and timeout as declared", () => {
    const declared = Schedules.workflow({ name: "x.wf", binding: "WF", timeout: "5 seconds" })
    expect(declared).toMatchObject({ name: "x.wf", timeoutMs: 5_000, leaseMs: 35_000 })
  })
})

describe("Schedules.workflow: admin shows its runs", () => {
  it("the schedule's events in the admin API show the workflow delivery", async () => {
    const s = openStream("wf-admin")
    const { idempotencyKey } = value(
      await s.upsert({
        id: "monthly-statement",
        consumer: monthlyStatement.name,
        cron: "0 6 1 * *",
        payload: { account: "acme" },
      }),
    )
    const id = await Schedules.workflowInstanceId(idempotencyKey)
    await using instance = await introspectWorkflowInstance(env.STATEMENTS, id)
    const due = Date.UTC(2100, 1, 1, 6, 0)

    await s.tick(due)
    await instance.waitForStatus("complete")

    const body = await json(await adminFetch(`/admin/streams/${s.name}/schedules/monthly-statement`))
    expect(body.schedule).toMatchObject({ consumer: "statements.monthly", occurrence: 2 })
    const fired = body.events.filter((event: { type: string }) => event.type === "schedule/fired")
    expect(fired).toHaveLength(1)
    expect(fired[0]).toMatchObject({ scheduleId: "monthly-statement", data: { occurrence: 1, state: "scheduled" } })
  })
})
