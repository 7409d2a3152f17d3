import { env } from "cloudflare:workers"
import fc from "fast-check"
import { beforeAll, describe, expect, it } from "vitest"
import { commitOnce, type OnceResult } from "../../src/infra/once.ts"

const NOW = Date.UTC(2026, 11, 1, 12, 0)
const KEYS = 3

/**
 * One delivery of a key: `good` commits a counted effect; `failing` carries an effect D1 refuses (a D1
 * failure that is not the key's); `lost` drops the answer, as an evicted object or a timed-out consumer does.
 */
interface Delivery {
  key: number
  failing: boolean
  lost: boolean
}

const delivery = fc.record({ key: fc.nat(KEYS - 1), failing: fc.boolean(), lost: fc.boolean() })
/** Waves run one after another; the deliveries of a wave run at once, as redeliveries that overlap would. */
const waves = fc.array(fc.array(delivery, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 5 })

let runs = 0

describe("ctx.once over interleavings of delivery, commit, loss and redelivery (property)", () => {
  beforeAll(async () => {
    await env.DB.exec("CREATE TABLE IF NOT EXISTS prop_once_counts (item TEXT PRIMARY KEY, n INTEGER NOT NULL)")
  })

  it("applies each key's effects at most once, exactly once after a delivery that D1 did not refuse", async () => {
    await fc.assert(
      fc.asyncProperty(waves, async (plan) => {
        const run = ++runs
        const keyOf = (k: number) => `prop:${run}:${k}`
        const effectsOf = (d: Delivery) => {
          const count = env.DB.prepare(
            "INSERT INTO prop_once_counts (item, n) VALUES (?1, 1) ON CONFLICT (item) DO UPDATE SET n = n + 1",
          ).bind(keyOf(d.key))
          const refused = env.DB.prepare("INSERT INTO prop_once_counts (item, n) VALUES (?1, NULL)").bind(
            `${keyOf(d.key)}:refused`,
          )
          return d.failing ? [count, refused] : [count]
        }
        const applied = new Array<number>(KEYS).fill(0)
        const goodSent = new Array<boolean>(KEYS).fill(false)
        const delivered = new Array<boolean>(KEYS).fill(false)
        // A stream redelivers a key whose answer it lost or which threw: in the next wave, once more.
        let owed: Delivery[] = []
        const deliverWave = async (wave: Delivery[]) => {
          const answers = await Promise.all(
            wave.map((d) =>
              commitOnce(env.DB, keyOf(d.key), effectsOf(d), NOW).then(
                (answer): OnceResult | "threw" => answer,
                () => "threw" as const,
              ),
            ),
          )
          owed = []
          wave.forEach((d, i) => {
            const answer = answers[i] as OnceResult | "threw"
            delivered[d.key] = true
            if (!d.failing) goodSent[d.key] = true
            // A delivery D1 did not refuse always succeeds; a refused one throws or finds its key already committed.
            if (!d.failing) expect(answer).not.toBe("threw")
            if (d.failing) expect(answer === "threw" || (answer as OnceResult).status === "duplicate").toBe(true)
            if (answer !== "threw" && answer.status === "applied") applied[d.key] = (applied[d.key] ?? 0) + 1
            if (answer === "threw" || d.lost) owed.push({ key: d.key, failing: false, lost: false })
          })
          for (let k = 0; k < KEYS; k++) {
            const n = await env.DB.prepare("SELECT n FROM prop_once_counts WHERE item = ?")
              .bind(keyOf(k))
              .first<number>("n")
            const expected = goodSent[k] ? 1 : 0
            expect(n ?? 0).toBe(expected)
            expect(applied[k]).toBe(expected)
            const refused = await env.DB.prepare("SELECT n FROM prop_once_counts WHERE item = ?")
              .bind(`${keyOf(k)}:refused`)
              .first()
            expect(refused).toBeNull()
          }
        }
        for (const wave of plan) await deliverWave([...owed, ...wave])
        while (owed.length > 0) await deliverWave(owed)
        // Every key delivered at all is counted exactly once, whatever was lost or refused on the way.
        expect(applied).toEqual(delivered.map((d) => (d ? 1 : 0)))
      }),
      { numRuns: 25 },
    )
  })
})
