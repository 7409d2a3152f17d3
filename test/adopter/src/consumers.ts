import { Schedules } from "slotwise"

/** Records each delivery under its idempotency key: delivery is at least once, so a repeat changes nothing. */
export const echo = Schedules.consumer<{ message: string }>({
  name: "adopter.echo",
  deliver: async (delivery, { env }) => {
    // dueAt is a Date: D1 binds numbers, strings and null, so store its epoch milliseconds.
    await env.DB.prepare(
      "INSERT INTO received (idempotency_key, payload, due_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
    )
      .bind(delivery.idempotencyKey, JSON.stringify(delivery.payload), delivery.dueAt.getTime())
      .run()
  },
})

export const consumers = [echo]
