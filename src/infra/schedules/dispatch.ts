import { TIMED_OUT, within } from "../deadline.ts"
import { describeError, logger } from "../log.ts"
import type { Consumer, Delivery, DeliveryContext } from "./consumer.ts"
import { isOutcome } from "./consumer.ts"
import type { DeliveryResult } from "./core.ts"

export class DeliveryTimeoutError extends Error {
  override name = "DeliveryTimeoutError"
}

/**
 * Runs one delivery under the consumer's deadline. The signal is aborted at the deadline and
 * the attempt counts as a retry; a late answer from the consumer is ignored.
 */
export async function dispatch(
  consumer: Consumer,
  delivery: Delivery,
  ctx: Omit<DeliveryContext, "signal" | "log">,
): Promise<DeliveryResult> {
  const controller = new AbortController()
  try {
    const outcome = await within(
      Promise.resolve().then(() =>
        consumer.deliver(delivery, { ...ctx, signal: controller.signal, log: logOf(delivery) }),
      ),
      consumer.timeoutMs,
      () =>
        controller.abort(
          new DeliveryTimeoutError(`consumer "${consumer.name}" passed its ${consumer.timeoutMs} ms deadline`),
        ),
    )
    if (outcome === TIMED_OUT) return { status: "retry", reason: `deadline: no answer within ${consumer.timeoutMs} ms` }
    return isOutcome(outcome) ? outcome : { status: "delivered", lateByMs: delivery.lateByMs }
  } catch (error) {
    return { status: "retry", reason: describeError(error) }
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
