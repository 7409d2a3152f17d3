import { describe, expect, it } from "vitest"
import { durableDelay, recoveryDelay } from "../src/infra/backoff.ts"
import {
  budgetMs,
  capped,
  contention,
  createRetryingFetch,
  delayFor,
  isConnectionLost,
  isContention,
  isD1Error,
  neverRetried,
  RetryAfterExceedsBudgetError,
  replay,
  transient,
} from "../src/infra/retry.ts"

const ALMOST_ONE = 1 - Number.EPSILON

function recordingSleep() {
  const waits: number[] = []
  const sleep = async (ms: number) => {
    waits.push(ms)
  }
  return { waits, sleep }
}

function withCode(message: string, code: string, name?: string) {
  const error = Object.assign(new Error(message), { code })
  if (name) error.name = name
  return error
}

function named(name: string, message = "failed") {
  const error = new Error(message)
  error.name = name
  return error
}

describe("policies", () => {
  it("are the two named budgets", () => {
    expect(contention).toEqual({ name: "contention", baseMs: 50, capMs: 200, retries: 3 })
    expect(transient).toEqual({ name: "transient", baseMs: 200, capMs: 2000, retries: 3 })
  })

  it("rejects a policy without a positive base, cap or attempt cap", () => {
    expect(() => capped("x", 0, 100, 3)).toThrow(RangeError)
    expect(() => capped("x", -5, 100, 3)).toThrow(RangeError)
    expect(() => capped("x", 50, 0, 3)).toThrow(RangeError)
    expect(() => capped("x", 50, 100, 0)).toThrow(RangeError)
    expect(() => capped("x", 50, 100, 1.5)).toThrow(RangeError)
    expect(() => capped("x", 50, 100, Number.POSITIVE_INFINITY)).toThrow(RangeError)
    expect(() => capped("", 50, 100, 3)).toThrow(RangeError)
    expect(capped("ok", 10, 10, 1)).toEqual({ name: "ok", baseMs: 10, capMs: 10, retries: 1 })
  })
})

describe("delayFor", () => {
  it("doubles from the base with no jitter at the midpoint", () => {
    const mid = () => 0.5
    expect([0, 1, 2].map((i) => delayFor(contention, i, mid))).toEqual([50, 100, 200])
    expect([0, 1, 2].map((i) => delayFor(transient, i, mid))).toEqual([200, 400, 800])
  })

  it("caps each gap at capMs", () => {
    const policy = capped("long", 100, 300, 6)
    const gaps = [0, 1, 2, 3, 4, 5].map((i) => delayFor(policy, i, () => 0.5))
    expect(gaps).toEqual([100, 200, 300, 300, 300, 300])
  })

  it("jitters to 0.8x at random=0 and just under 1.2x at random≈1", () => {
    expect(delayFor(transient, 0, () => 0)).toBeCloseTo(160, 9)
    expect(delayFor(transient, 2, () => 0)).toBeCloseTo(640, 9)
    const high = delayFor(transient, 2, () => ALMOST_ONE)
    expect(high).toBeLessThan(960)
    expect(high).toBeGreaterThan(959.99)
    const cappedHigh = delayFor(capped("c", 100, 150, 3), 2, () => ALMOST_ONE)
    expect(cappedHigh).toBeLessThan(180)
    expect(cappedHigh).toBeGreaterThan(179.99)
  })

  it("keeps every jittered gap in [0.8, 1.2) of the capped gap", () => {
    const policy = capped("wide", 100, 500, 5)
    const nominal = [100, 200, 400, 500, 500]
    for (let n = 0; n < 2_000; n++) {
      const i = n % 5
      const gap = nominal[i]!
      const delay = delayFor(policy, i)
      expect(delay).toBeGreaterThanOrEqual(gap * 0.8)
      expect(delay).toBeLessThan(gap * 1.2)
    }
  })

  it("has no gap past the attempt cap", () => {
    expect(() => delayFor(contention, 3, () => 0.5)).toThrow(RangeError)
    expect(() => delayFor(contention, -1, () => 0.5)).toThrow(RangeError)
    expect(() => delayFor(contention, 0.5, () => 0.5)).toThrow(RangeError)
  })

  it("budgets the largest total wait", () => {
    expect(budgetMs(contention)).toBeCloseTo(420, 9)
    expect(budgetMs(transient)).toBeCloseTo(1680, 9)
    expect(budgetMs(capped("long", 100, 300, 5))).toBeCloseTo((100 + 200 + 300 + 300 + 300) * 1.2, 9)
    const sumOfMaxGaps = [0, 1, 2].reduce((sum, i) => sum + delayFor(transient, i, () => ALMOST_ONE), 0)
    expect(sumOfMaxGaps).toBeLessThanOrEqual(budgetMs(transient))
  })
})

describe("replay", () => {
  it("stops after 3 retries and rethrows the last error", async () => {
    const { waits, sleep } = recordingSleep()
    const attempts: number[] = []
    const run = replay(
      async (attempt) => {
        attempts.push(attempt)
        throw withCode(`deadlock ${attempt}`, "40P01")
      },
      { policy: contention, while: isContention, sleep, random: () => 0.5 },
    )
    await expect(run).rejects.toThrow("deadlock 4")
    expect(attempts).toEqual([1, 2, 3, 4])
    expect(waits).toEqual([50, 100, 200])
  })

  it("returns the first success", async () => {
    const { waits, sleep } = recordingSleep()
    let calls = 0
    const value = await replay(
      async () => {
        calls++
        if (calls < 3) throw new Error("SQLITE_BUSY: database is locked")
        return "done"
      },
      { policy: contention, while: isContention, sleep, random: () => 0 },
    )
    expect(value).toBe("done")
    expect(calls).toBe(3)
    expect(waits).toHaveLength(2)
    expect(waits[0]).toBeCloseTo(40, 9)
    expect(waits[1]).toBeCloseTo(80, 9)
  })

  it("does not retry an error the predicate rejects", async () => {
    const { waits, sleep } = recordingSleep()
    let calls = 0
    const failure = new Error("domain rule violated")
    const run = replay(
      async () => {
        calls++
        throw failure
      },
      { policy: transient, while: isContention, sleep },
    )
    await expect(run).rejects.toBe(failure)
    expect(calls).toBe(1)
    expect(waits).toEqual([])
  })

  it("never retries a D1 error, even one that mentions locking, whatever the predicate says", async () => {
    for (const predicate of [isContention, isConnectionLost, () => true]) {
      const { waits, sleep } = recordingSleep()
      let calls = 0
      const run = replay(
        async () => {
          calls++
          throw new Error("D1_ERROR: database is locked: SQLITE_BUSY")
        },
        { policy: contention, while: predicate, sleep },
      )
      await expect(run).rejects.toThrow("D1_ERROR")
      expect(calls).toBe(1)
      expect(waits).toEqual([])
    }
  })
})

describe("predicates", () => {
  it("recognise D1 failures, directly or as a cause", () => {
    expect(isD1Error(new Error("D1_ERROR: database is locked"))).toBe(true)
    expect(isD1Error(new Error("D1_EXEC_ERROR: Error in line 1: SQLITE_BUSY"))).toBe(true)
    expect(isD1Error(new Error("Failed query: update x", { cause: new Error("D1_ERROR: boom") }))).toBe(true)
    expect(isD1Error(new Error("SQLITE_BUSY: database is locked"))).toBe(false)
    expect(isD1Error("D1_ERROR")).toBe(false)
    expect(isD1Error(undefined)).toBe(false)
  })

  it("isContention matches lock and serialization failures but no D1 error", () => {
    expect(isContention(new Error("SQLITE_BUSY: database is locked"))).toBe(true)
    expect(isContention(new Error("database is locked"))).toBe(true)
    expect(isContention(withCode("busy", "SQLITE_BUSY_SNAPSHOT"))).toBe(true)
    expect(isContention(withCode("deadlock detected", "40P01"))).toBe(true)
    expect(isContention(withCode("could not serialize access", "40001"))).toBe(true)
    expect(isContention(withCode("canceling statement due to lock timeout", "55P03"))).toBe(true)
    expect(isContention(named("DeadlockError"))).toBe(true)
    expect(isContention(named("SerializationError"))).toBe(true)
    expect(isContention(named("LockTimeoutError"))).toBe(true)
    expect(isContention(new Error("Failed query", { cause: withCode("deadlock", "40P01") }))).toBe(true)

    expect(isContention(new Error("D1_ERROR: database is locked"))).toBe(false)
    expect(isContention(new Error("D1_EXEC_ERROR: SQLITE_BUSY"))).toBe(false)
    expect(isContention(new Error("Failed query", { cause: new Error("D1_ERROR: database is locked") }))).toBe(false)
    expect(isContention(withCode("duplicate key", "23505"))).toBe(false)
    expect(isContention(withCode("canceling statement due to statement timeout", "57014"))).toBe(false)
    expect(isContention(named("StatementTimeoutError"))).toBe(false)
    expect(isContention(new TypeError("fetch failed"))).toBe(false)
    expect(isContention(null)).toBe(false)
  })

  it("isConnectionLost matches dropped connections but no D1 error", () => {
    expect(isConnectionLost(new TypeError("fetch failed"))).toBe(true)
    expect(isConnectionLost(new TypeError("Network connection lost."))).toBe(true)
    expect(isConnectionLost(withCode("read ECONNRESET", "ECONNRESET"))).toBe(true)
    expect(isConnectionLost(withCode("connect ECONNREFUSED", "ECONNREFUSED"))).toBe(true)
    expect(isConnectionLost(withCode("write EPIPE", "EPIPE"))).toBe(true)
    expect(isConnectionLost(withCode("timed out", "ETIMEDOUT"))).toBe(true)
    expect(isConnectionLost(named("ConnectionError"))).toBe(true)
    expect(isConnectionLost(new TypeError("request failed", { cause: withCode("reset", "ECONNRESET") }))).toBe(true)

    expect(isConnectionLost(new Error("D1_ERROR: Network connection lost."))).toBe(false)
    expect(isConnectionLost(new Error("wrapped", { cause: new Error("D1_ERROR: fetch failed") }))).toBe(false)
    expect(isConnectionLost(new TypeError("x is not a function"))).toBe(false)
    expect(isConnectionLost(withCode("deadlock", "40P01"))).toBe(false)
  })

  it("neverRetried is true for D1, domain and timeout failures only", () => {
    expect(neverRetried(new Error("D1_ERROR: database is locked"))).toBe(true)
    expect(neverRetried(named("StatementTimeoutError"))).toBe(true)
    expect(neverRetried(new Error("trial already closed"))).toBe(true)
    expect(neverRetried(withCode("deadlock", "40P01"))).toBe(false)
    expect(neverRetried(new TypeError("fetch failed"))).toBe(false)
  })
})

describe("recoveryDelay", () => {
  it("starts at 1 s and doubles from the previous delay to 60 s", () => {
    const delays = [recoveryDelay(0)]
    while (delays.length < 9) delays.push(recoveryDelay(delays.at(-1) as number))
    expect(delays.map((ms) => ms / 1_000)).toEqual([1, 2, 4, 8, 16, 32, 60, 60, 60])
  })
})

describe("durableDelay", () => {
  it("backs off 1, 2, 4, 8, 16, 32, 60, 60 seconds for attempts 1..8", () => {
    const seconds = [1, 2, 3, 4, 5, 6, 7, 8].map((attempts) => durableDelay(attempts) / 1_000)
    expect(seconds).toEqual([1, 2, 4, 8, 16, 32, 60, 60])
    expect(durableDelay(50)).toBe(60_000)
  })

  it("rejects an attempt count below 1 or fractional", () => {
    expect(() => durableDelay(0)).toThrow(RangeError)
    expect(() => durableDelay(-1)).toThrow(RangeError)
    expect(() => durableDelay(1.5)).toThrow(RangeError)
    expect(() => durableDelay(Number.NaN)).toThrow(RangeError)
  })
})

type Reply = Response | Error

function fakeFetch(replies: Reply[]) {
  const requests: { method: string; url: string; body: string; key: string | null }[] = []
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    requests.push({
      method: request.method,
      url: request.url,
      body: await request.text(),
      key: request.headers.get("Idempotency-Key"),
    })
    const reply = replies.shift()
    if (reply === undefined) throw new Error("fake fetch: no reply left")
    if (reply instanceof Error) throw reply
    return reply
  }
  return { fetch, requests }
}

const status = (code: number, headers: Record<string, string> = {}) =>
  new Response(`status ${code}`, { status: code, headers })

describe("createRetryingFetch", () => {
  it("retries a GET on 503 and returns the success", async () => {
    const { fetch, requests } = fakeFetch([status(503), status(503), status(200)])
    const { waits, sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep, random: () => 0.5 })
    const res = await retrying("https://api.example/items")
    expect(res.status).toBe(200)
    expect(requests).toHaveLength(3)
    expect(requests.every((r) => r.method === "GET" && r.url === "https://api.example/items")).toBe(true)
    expect(waits).toEqual([200, 400])
  })

  it("retries each retryable status and passes others through", async () => {
    for (const code of [408, 429, 500, 502, 503, 504]) {
      const { fetch, requests } = fakeFetch([status(code), status(200)])
      const retrying = createRetryingFetch({ fetch, sleep: recordingSleep().sleep, random: () => 0 })
      expect((await retrying("https://api.example/x")).status).toBe(200)
      expect(requests).toHaveLength(2)
    }
    for (const code of [400, 401, 404, 409, 501]) {
      const { fetch, requests } = fakeFetch([status(code), status(200)])
      const retrying = createRetryingFetch({ fetch, sleep: recordingSleep().sleep })
      expect((await retrying("https://api.example/x")).status).toBe(code)
      expect(requests).toHaveLength(1)
    }
  })

  it("returns the last retryable response once retries run out", async () => {
    const { fetch, requests } = fakeFetch([status(503), status(502), status(504), status(500), status(200)])
    const { waits, sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep, random: () => 0.5 })
    const res = await retrying("https://api.example/x", { method: "PUT", body: "v" })
    expect(res.status).toBe(500)
    expect(await res.text()).toBe("status 500")
    expect(requests).toHaveLength(4)
    expect(waits).toEqual([200, 400, 800])
  })

  it("gives a POST without an Idempotency-Key exactly one attempt", async () => {
    const { fetch, requests } = fakeFetch([status(503), status(200)])
    const { waits, sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep })
    const res = await retrying("https://api.example/charges", { method: "POST", body: "amount=5" })
    expect(res.status).toBe(503)
    expect(requests).toHaveLength(1)
    expect(waits).toEqual([])

    const patch = fakeFetch([status(503), status(200)])
    const patching = createRetryingFetch({ fetch: patch.fetch, sleep })
    expect((await patching("https://api.example/x", { method: "PATCH", body: "{}" })).status).toBe(503)
    expect(patch.requests).toHaveLength(1)
  })

  it("does not retry a connection loss on a POST without an Idempotency-Key", async () => {
    const lost = new TypeError("Network connection lost.")
    const { fetch, requests } = fakeFetch([lost, status(200)])
    const retrying = createRetryingFetch({ fetch, sleep: recordingSleep().sleep })
    await expect(retrying("https://api.example/charges", { method: "POST", body: "x" })).rejects.toBe(lost)
    expect(requests).toHaveLength(1)
  })

  it("retries a POST with an Idempotency-Key and replays its body", async () => {
    const { fetch, requests } = fakeFetch([status(502), status(429), status(201)])
    const { sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep, random: () => 0 })
    const request = new Request("https://api.example/charges", {
      method: "POST",
      headers: { "Idempotency-Key": "charge-42" },
      body: JSON.stringify({ amount: 5 }),
    })
    const res = await retrying(request)
    expect(res.status).toBe(201)
    expect(requests).toHaveLength(3)
    for (const r of requests) {
      expect(r.method).toBe("POST")
      expect(r.key).toBe("charge-42")
      expect(r.body).toBe('{"amount":5}')
    }
  })

  it("retries a lost connection on a GET, then rethrows once retries run out", async () => {
    const { fetch, requests } = fakeFetch([new TypeError("fetch failed"), status(200)])
    const { waits, sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep, random: () => 0.5 })
    expect((await retrying("https://api.example/x")).status).toBe(200)
    expect(requests).toHaveLength(2)
    expect(waits).toEqual([200])

    const last = new TypeError("fetch failed")
    const down = fakeFetch([new TypeError("fetch failed"), new TypeError("fetch failed"), new TypeError("x"), last])
    const failing = createRetryingFetch({ fetch: down.fetch, sleep, random: () => 0.5 })
    await expect(failing("https://api.example/x")).rejects.toBeInstanceOf(TypeError)
    expect(down.requests).toHaveLength(3)

    const gone = fakeFetch([last, last, last, last, status(200)])
    const exhausted = createRetryingFetch({ fetch: gone.fetch, sleep, random: () => 0.5 })
    await expect(exhausted("https://api.example/x")).rejects.toBe(last)
    expect(gone.requests).toHaveLength(4)
  })

  it("does not retry an error that is not a lost connection", async () => {
    const failure = new Error("D1_ERROR: Network connection lost.")
    const { fetch, requests } = fakeFetch([failure, status(200)])
    const retrying = createRetryingFetch({ fetch, sleep: recordingSleep().sleep })
    await expect(retrying("https://api.example/x")).rejects.toBe(failure)
    expect(requests).toHaveLength(1)
  })

  it("waits a Retry-After within budget instead of the computed delay", async () => {
    const { fetch, requests } = fakeFetch([status(429, { "Retry-After": "1" }), status(200)])
    const { waits, sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep, random: () => 0.5 })
    expect((await retrying("https://api.example/x")).status).toBe(200)
    expect(requests).toHaveLength(2)
    expect(waits).toEqual([1_000])
  })

  it("reads a Retry-After HTTP date against the injected clock", async () => {
    const now = Date.parse("2026-11-01T00:00:00Z")
    const later = new Date(now + 1_000).toUTCString()
    const { fetch } = fakeFetch([status(503, { "Retry-After": later }), status(200)])
    const { waits, sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep, now: () => now })
    expect((await retrying("https://api.example/x")).status).toBe(200)
    expect(waits).toEqual([1_000])
  })

  it("throws RetryAfterExceedsBudgetError without sleeping when Retry-After is over budget", async () => {
    const { fetch, requests } = fakeFetch([status(503, { "Retry-After": "5" }), status(200)])
    const { waits, sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep })
    const error = await retrying("https://api.example/x").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RetryAfterExceedsBudgetError)
    const typed = error as RetryAfterExceedsBudgetError
    expect(typed.name).toBe("RetryAfterExceedsBudgetError")
    expect(typed.retryAfterMs).toBe(5_000)
    expect(typed.remainingMs).toBeCloseTo(budgetMs(transient), 9)
    expect(typed.response.status).toBe(503)
    expect(requests).toHaveLength(1)
    expect(waits).toEqual([])
  })

  it("counts time already waited against the budget", async () => {
    const { fetch, requests } = fakeFetch([
      status(503),
      status(503, { "Retry-After": "1" }),
      status(503, { "Retry-After": "1" }),
      status(200),
    ])
    const { waits, sleep } = recordingSleep()
    const retrying = createRetryingFetch({ fetch, sleep, random: () => 0 })
    const error = await retrying("https://api.example/x").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(RetryAfterExceedsBudgetError)
    expect(waits).toHaveLength(2)
    expect(waits[0]).toBeCloseTo(160, 9)
    expect(waits[1]).toBe(1_000)
    expect((error as RetryAfterExceedsBudgetError).remainingMs).toBeCloseTo(1680 - 160 - 1_000, 9)
    expect(requests).toHaveLength(3)
  })

  it("ignores a Retry-After on a request it may not replay", async () => {
    const { fetch, requests } = fakeFetch([status(503, { "Retry-After": "60" })])
    const retrying = createRetryingFetch({ fetch, sleep: recordingSleep().sleep })
    expect((await retrying("https://api.example/x", { method: "POST" })).status).toBe(503)
    expect(requests).toHaveLength(1)
  })
})
