import { say, warn } from "./log.ts"

const SEED_TIMEOUT_MS = 10_000

/**
 * Demo data through the Worker's own routes: usage for account "demo", which also upserts
 * its every-minute usage-report schedule (idempotent, so a restart changes nothing).
 */
export async function seedDemo(origin: string): Promise<void> {
  try {
    const res = await fetch(`${origin}/billing/usage`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ account: "demo", quantity: 3 }),
      signal: AbortSignal.timeout(SEED_TIMEOUT_MS),
    })
    if (!res.ok) throw new Error(`POST /billing/usage answered ${res.status}: ${await res.text()}`)
    say('seeded usage for account "demo"; its usage-report schedule delivers within a minute')
  } catch (error) {
    warn(`could not seed demo data: ${(error as Error).message}`)
  }
}
