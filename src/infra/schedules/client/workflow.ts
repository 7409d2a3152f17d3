import type { Duration } from "../../duration.ts"
import { type Consumer, ConsumerDefinitionError, consumer, type Delivery, terminal } from "../contract/consumer.ts"
import type { Json } from "../contract/spec.ts"
import { workflowRefusal } from "./workflow-refusal.ts"

/** What a Workflow instance started by `Schedules.workflow` receives as `event.payload`. */
export interface WorkflowParams<P extends Json = Json> {
  /** The schedule's payload, unchanged. */
  payload: P
  /** The stream that delivered it. */
  stream: string
  /** The schedule's id in its stream. */
  scheduleId: string
  /** 1-based; one instance per occurrence. */
  occurrence: number
  /** The occurrence's due time (ISO 8601, UTC): process what is due as of it, as a job does with its slot. */
  dueAt: string
  /** The delivery's key, `schedule:<stream>/<id>@<incarnation>:<occurrence>`; the instance id is derived from it. */
  idempotencyKey: string
}

/** What `Schedules.workflow` takes: the consumer's name and the Workflow binding its deliveries start. */
export interface WorkflowConsumerDefinition {
  /** `[a-z0-9][a-z0-9._-]{0,99}`, unique among the consumers a Worker hands its streams. */
  name: string
  /** The name of the Workflow binding in env (wrangler.toml `[[workflows]] binding`). */
  binding: string
  /** How long creating the instance may take: default 30 seconds, at most 10 minutes. */
  timeout?: Duration
}

// An env binding name as wrangler accepts it: a JavaScript identifier.
const BINDING_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/
const DEFINITION_FIELDS = new Set(["name", "binding", "timeout"])
const INSTANCE_ID_PREFIX = "schedule-"

/**
 * The Workflow instance id of a delivery: `schedule-` and the SHA-256 of its idempotency key in hex
 * (73 characters). Deterministic, so every redelivery of an occurrence names the same instance; the key
 * itself never fits, since instance ids allow only `[a-zA-Z0-9_-]` (at most 100) and the key holds `:`, `/` and `@`.
 *
 * @example
 * ```ts
 * const instance = await env.STATEMENTS.get(await Schedules.workflowInstanceId(delivery.idempotencyKey))
 * ```
 */
export async function workflowInstanceId(idempotencyKey: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(idempotencyKey))
  return INSTANCE_ID_PREFIX + [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("")
}

/** The params a delivery starts its instance with. */
export function workflowParams<P extends Json>(delivery: Delivery<P>): WorkflowParams<P> {
  return {
    payload: delivery.payload,
    stream: delivery.stream,
    scheduleId: delivery.scheduleId,
    occurrence: delivery.occurrence,
    dueAt: delivery.dueAt.toISOString(),
    idempotencyKey: delivery.idempotencyKey,
  }
}

const isWorkflow = (value: unknown): value is Workflow =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as Workflow).create === "function" &&
  typeof (value as Workflow).get === "function"

/** True when the instance answers `get`: it exists, whatever its status. */
async function instanceExists(workflow: Workflow, id: string): Promise<boolean> {
  try {
    await workflow.get(id)
    return true
  } catch {
    return false
  }
}

/**
 * Declares a consumer whose delivery starts one instance of a Cloudflare Workflow: work that outlives an
 * invocation or needs durable steps. The instance id is derived from the delivery's idempotency key
 * (`workflowInstanceId`), so a redelivery finds the instance and starts nothing new; its params are
 * `WorkflowParams` (the payload and the occurrence). An instance id that already exists is delivered; a
 * refused create retries (1, 2, 4 ... 60 s) unless Cloudflare's error says no later attempt can succeed
 * (invalid id or params): then the schedule stops in `failed`. A binding missing from env, or not a
 * Workflow, is terminal and named. Cloudflare keeps a completed instance for its retention window (3 days
 * on Workers Free, 7 by default on Paid): a redelivery of the same occurrence later than that starts a second one. Throws ConsumerDefinitionError on a bad name, binding or timeout.
 *
 * @example
 * ```ts
 * // wrangler.toml: [[workflows]] name = "statements", binding = "STATEMENTS", class_name = "StatementWorkflow"
 * export const monthlyStatement = Schedules.workflow({ name: "statements.monthly", binding: "STATEMENTS" })
 *
 * export class StatementWorkflow extends WorkflowEntrypoint<Env, Schedules.WorkflowParams<{ account: string }>> {
 *   async run(event: WorkflowEvent<Schedules.WorkflowParams<{ account: string }>>, step: WorkflowStep) {
 *     const total = await step.do("total", () => totalOf(this.env, event.payload.payload.account, event.payload.dueAt))
 *     await step.do("send", () => send(event.payload.payload.account, total))
 *   }
 * }
 *
 * await Schedules.stream(env.SCHEDULES, "acme").upsert({
 *   id: "monthly-statement", consumer: monthlyStatement.name, cron: "0 6 1 * *", payload: { account: "acme" },
 * })
 * ```
 */
export function workflow(definition: WorkflowConsumerDefinition): Consumer {
  const label = String(definition?.name)
  if (typeof definition !== "object" || definition === null) {
    throw new ConsumerDefinitionError("workflow consumer: the definition must be an object { name, binding }")
  }
  for (const field of Object.keys(definition)) {
    if (!DEFINITION_FIELDS.has(field)) {
      throw new ConsumerDefinitionError(
        `workflow consumer "${label}": ${field} is not an option (name, binding, timeout); the Workflow is the delivery`,
      )
    }
  }
  const { binding } = definition
  if (typeof binding !== "string" || !BINDING_NAME.test(binding)) {
    throw new ConsumerDefinitionError(
      `workflow consumer "${label}": binding must be the name of a Workflow binding in env, such as "MY_WORKFLOW"`,
    )
  }
  return consumer({
    name: definition.name,
    ...(definition.timeout === undefined ? {} : { timeout: definition.timeout }),
    deliver: async (delivery, { env, log }) => {
      const bound = (env as unknown as Record<string, unknown>)[binding]
      if (!isWorkflow(bound)) {
        const found = bound === undefined ? "is missing from env" : "in env is not a Workflow binding"
        return terminal(`binding "${binding}" ${found}: declare it under [[workflows]] in wrangler.toml`)
      }
      const id = await workflowInstanceId(delivery.idempotencyKey)
      try {
        await bound.create({ id, params: workflowParams(delivery) })
        return
      } catch (error) {
        const refusal = workflowRefusal(error)
        // A redelivery: an earlier attempt created the instance (its answer may have been lost).
        if (refusal.kind === "exists" || (await instanceExists(bound, id))) {
          log.info("schedule.workflow instance exists", { binding, instanceId: id })
          return
        }
        return refusal.outcome
      }
    },
  })
}
