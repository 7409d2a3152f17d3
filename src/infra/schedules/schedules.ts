import { stream } from "./client.ts"
import { consumer, consumers, retry, terminal } from "./consumer.ts"

/**
 * The public face of durable schedules: streams, consumers and the consumers' outcomes.
 * Modules that declare consumers import it from this file, not index.ts: index.ts loads the
 * stream, which loads src/consumers.ts, which loads those very modules.
 */
export const Schedules = { stream, consumer, consumers, retry, terminal }
