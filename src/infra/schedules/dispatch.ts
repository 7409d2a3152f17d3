import { describeError } from "../log.ts"
import type { Consumer, Delivery, DeliveryContext } from "./consumer.ts"
import { isOutcome } from "./consumer.ts"
import type { Result } from "./core.ts"

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
  ctx: Omit<DeliveryContext, "signal">,
  startedAt: number,
): Promise<Result> {
  const controller = new AbortController()
  let timer: number | undefined
  const deadline = new Promise<Result>((resolve) => {
    timer = setTimeout(() => {
      controller.abort(
        new DeliveryTimeoutError(`consumer "${consumer.name}" passed its ${consumer.timeoutMs} ms deadline`),
      )
      resolve({ status: "retry", reason: `deadline: no answer within ${consumer.timeoutMs} ms` })
    }, consumer.timeoutMs)
  })
  const work = Promise.resolve()
    .then(() => consumer.deliver(delivery, { ...ctx, signal: controller.signal }))
    .then(
      (outcome): Result => (isOutcome(outcome) ? outcome : { status: "delivered", startedAt }),
      (error: unknown): Result => ({ status: "retry", reason: describeError(error) }),
    )
  try {
    return await Promise.race([work, deadline])
  } finally {
    if (timer !== undefined) clearTimeout(timer)
  }
}
