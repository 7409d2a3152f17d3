import { stream } from "./client.ts"
import { consumer, consumers, retry, terminal } from "./consumer.ts"

/** The public face of durable schedules: streams, consumers and the consumers' outcomes. */
export const Schedules = { stream, consumer, consumers, retry, terminal }
