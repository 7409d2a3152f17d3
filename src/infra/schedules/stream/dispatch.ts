import { type Deadlines, TIMED_OUT, within } from "../../deadline.ts"
import { slotwiseEnv } from "../../env.ts"
import { describeError, type Logger, logger } from "../../log.ts"
import { commitOnce } from "../../once.ts"
import { activeTracer, exceptionOf, type SpanLike, type Tracer } from "../../tracing/index.ts"
import type { Consumer, Delivery, DeliveryContext } from "../contract/consumer.ts"
import { isOutcome } from "../contract/consumer.ts"
import type { DeliveryResult } from "./core/settle.ts"
import { normalised } from "./settlement.ts"

export class DeliveryTimeoutError extends Error {
  override name = "DeliveryTimeoutError"
}

/** What a stream hands a delivery; `clock` (default Date.now) dates the keys `ctx.once` commits. */
export interface DispatchContext extends Pick<DeliveryContext, "env"> {
  clock?: () => number
}

/**
 * Runs one delivery under the consumer's deadline, inside a `schedule.deliver` span (stream,
 * schedule, occurrence, attempt, idempotency key and outcome; a throw recorded). The signal is
 * aborted at the deadline and the attempt counts as a retry; a late answer is ignored. A tick
 * passes its `deadlines`, so that its attempts share a timer (deadline.ts).
 */
export function dispatch(
  consumer: Consumer,
  delivery: Delivery,
  ctx: DispatchContext,
  tracer: Tracer = activeTracer(),
  deadlines?: Deadlines,
): Promise<DeliveryResult> {
  return tracer.enterSpan("schedule.deliver", async (span) => {
    span.setAttribute("schedule.stream", delivery.stream)
    span.setAttribute("schedule.id", delivery.scheduleId)
    span.setAttribute("schedule.occurrence", delivery.occurrence)
    span.setAttribute("schedule.attempt", delivery.attempt)
    span.setAttribute("schedule.idempotency_key", delivery.idempotencyKey)
    const result = await deliver(consumer, delivery, ctx, span, deadlines)
    span.setAttribute("schedule.outcome", result.status)
    span.setStatus(result.status === "delivered" ? { code: "ok" } : { code: "error", message: result.reason })
    return result
  })
}

async function deliver(
  consumer: Consumer,
  delivery: Delivery,
  ctx: DispatchContext,
  span: SpanLike,
  deadlines?: Deadlines,
): Promise<DeliveryResult> {
  const attempt = new Attempt(delivery, ctx)
  const context = attempt.context()
  try {
    // Called at once, not a microtask later: a throw is caught below as a rejection would be.
    const answer = consumer.deliver(delivery, context)
    // An answer given synchronously is in before any deadline could fire: it needs no timer.
    if (!isThenable(answer)) return resultOf(answer, delivery)
    const work = Promise.resolve(answer)
    const abort = () =>
      attempt.abort(
        new DeliveryTimeoutError(`consumer "${consumer.name}" passed its ${consumer.timeoutMs} ms deadline`),
      )
    const outcome = await (deadlines
      ? deadlines.within(work, consumer.timeoutMs, abort)
      : within(work, consumer.timeoutMs, abort))
    if (outcome === TIMED_OUT) return { status: "retry", reason: `deadline: no answer within ${consumer.timeoutMs} ms` }
    return resultOf(outcome, delivery)
  } catch (error) {
    span.recordException(exceptionOf(error))
    return { status: "retry", reason: describeError(error) }
  }
}

/** A consumer's answer as a result: a copy, checked, since the consumer still holds the outcome it returned. */
const resultOf = (answer: unknown, delivery: Delivery): DeliveryResult =>
  isOutcome(answer) ? normalised(answer) : { status: "delivered", lateByMs: delivery.lateByMs }

/** Reading `then` may throw (a getter, a proxy): the caller's catch makes that a retry. */
const isThenable = (value: unknown): value is PromiseLike<unknown> =>
  (typeof value === "object" || typeof value === "function") &&
  value !== null &&
  typeof (value as { then?: unknown }).then === "function"

/**
 * One attempt's context. Its signal and logger are made when the consumer first reads them (most
 * never do): a signal read after the deadline is already aborted, with the same reason.
 */
class Attempt {
  private controller: AbortController | undefined
  private aborted: { reason: unknown } | undefined
  private logger: Logger | undefined

  constructor(
    private readonly delivery: Delivery,
    private readonly ctx: DispatchContext,
  ) {}

  /** Own getters, not a prototype's: a consumer may spread or destructure its context. */
  context(): DeliveryContext {
    const attempt = this
    const { ctx, delivery } = this
    return {
      env: ctx.env,
      get signal() {
        return attempt.signal()
      },
      get log() {
        attempt.logger ??= logOf(delivery)
        return attempt.logger
      },
      once: (statements) =>
        commitOnce(slotwiseEnv(ctx.env).DB, delivery.idempotencyKey, statements, (ctx.clock ?? Date.now)()),
    }
  }

  signal(): AbortSignal {
    if (this.controller === undefined) {
      this.controller = new AbortController()
      if (this.aborted) this.controller.abort(this.aborted.reason)
    }
    return this.controller.signal
  }

  abort(reason: unknown): void {
    this.aborted = { reason }
    this.controller?.abort(reason)
  }
}

/** A consumer's lines carry where they come from. */
const logOf = (delivery: Delivery) =>
  logger({
    stream: delivery.stream,
    schedule: delivery.scheduleId,
    occurrence: delivery.occurrence,
    attempt: delivery.attempt,
  })
