import { env, exports } from "cloudflare:workers"
import { expect, it } from "vitest"

it("serves health", async () => {
  const res = await exports.default.fetch("http://x/health")
  expect(await res.json()).toEqual({ ok: true })
  const rows = await env.DB.prepare("select count(*) as n from jobs_leases").first()
  expect(rows).toEqual({ n: 0 })
})
