import { Schedules } from "slotwise"

/** Records each delivery under its idempotency key: delivery is at least once, so a repeat changes nothing. */
export const echo = Schedules.consumer<{ message: string }>({
  name: "adopter.echo",
  deliver: async (delivery, { env }) => {
    await env.DB.prepare("INSERT INTO received (idempotency_key, payload) VALUES (?, ?) ON CONFLICT DO NOTHING")
      .bind(delivery.idempotencyKey, JSON.stringify(delivery.payload))
      .run()
  },
})

export const consumers = [echo]
