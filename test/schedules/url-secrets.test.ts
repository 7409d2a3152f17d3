import { describe, expect, it } from "vitest"
import { describeError, logLine } from "../../src/infra/log.ts"
import { exceptionOf } from "../../src/infra/tracing/index.ts"
import { redactUrlSecrets } from "../../src/infra/url-secrets.ts"
import { captureLogs } from "../support/logs.ts"
import { eventsOf, openStream, storedRow, T0, value } from "../support/streams.ts"

const logs = captureLogs()

/** Marks every secret below, so a test can say it appears nowhere. */
const SECRET = "s3cr3t-7f2a"

describe("redactUrlSecrets: a URL's userinfo, query values and fragment hidden wherever it appears in text", () => {
  it.each<[string, string]>([
    [`https://bot:${SECRET}@hooks.example.com/in`, "https://***@hooks.example.com/in"],
    [`https://${SECRET}@hooks.example.com`, "https://***@hooks.example.com"],
    [`http://a@b:${SECRET}@127.0.0.1:8080/x`, "http://***@127.0.0.1:8080/x"],
    [`https://h.example/in?token=${SECRET}&v=2`, "https://h.example/in?token=***&v=***"],
    [`https://h.example/in?${SECRET}`, "https://h.example/in?***"],
    [`https://h.example/in?a=1&&b=${SECRET}#${SECRET}`, "https://h.example/in?a=***&&b=***#***"],
    [`https://h.example/in#access_token=${SECRET}`, "https://h.example/in#***"],
    [
      `POST https://u:${SECRET}@a.example/x?k=${SECRET} answered 307, a redirect to https://b.example/y?k=${SECRET}, which is not followed`,
      "POST https://***@a.example/x?k=*** answered 307, a redirect to https://b.example/y?k=***, which is not followed",
    ],
    ["POST https://hooks.example.com/usage answered 503", "POST https://hooks.example.com/usage answered 503"],
    ["no url here: a@b, ?x=1", "no url here: a@b, ?x=1"],
  ])("%s -> %s", (text, redacted) => {
    expect(redactUrlSecrets(text)).toBe(redacted)
  })
})

describe("no URL secret reaches a reason, an event, a log line or a span", () => {
  it("hides them in a consumer's retry reason: in last_error, the schedule/failed event and the schedule.delivery line", async () => {
    const stream = openStream("url-secrets")
    const reason = `POST https://bot:${SECRET}@hooks.example.com/in?token=${SECRET} answered 503`
    value(await stream.upsert({ id: "told", consumer: "test.refusing", at: T0, payload: { reason } }))
    expect(await stream.tick(T0)).toMatchObject({ claimed: 1, retried: 1 })

    const redacted = "POST https://***@hooks.example.com/in?token=*** answered 503"
    expect((await storedRow(stream, "told")).last_error).toBe(redacted)
    const [failed] = await eventsOf(stream, "told")
    expect(failed).toMatchObject({ type: "schedule/failed", data: { reason: redacted } })
    expect(logs.of("schedule.delivery").map((line) => line.reason)).toEqual([redacted])
    // The payload is the caller's own input, kept as given; everything written about the delivery is clean.
    const { payload: _, ...row } = (await stream.row("told")) as Record<string, unknown>
    expect(JSON.stringify([row, await eventsOf(stream, "told"), logs.lines])).not.toContain(SECRET)
  })

  it("hides them in an error a consumer throws", async () => {
    const stream = openStream("url-secrets-thrown")
    const reason = `fetch https://h.example/in?token=${SECRET} failed`
    value(await stream.upsert({ id: "thrown", consumer: "test.refusing", at: T0, payload: { reason, throws: true } }))
    expect(await stream.tick(T0)).toMatchObject({ claimed: 1, retried: 1 })

    const { payload: _, ...row } = (await stream.row("thrown")) as Record<string, unknown>
    expect(row.last_error).toBe("Error: fetch https://h.example/in?token=*** failed")
    expect(JSON.stringify([row, await eventsOf(stream, "thrown"), logs.lines])).not.toContain(SECRET)
  })

  it("hides them before describeError cuts a thrown object's JSON, wherever the cut falls", () => {
    // A thrown object with no prototype is described as JSON cut to 200 characters: for every place of the
    // URL, the cut falls somewhere in `user:password@`, the query or the fragment, and none of it shows.
    for (let pad = 150; pad <= 210; pad++) {
      const thrown = Object.assign(Object.create(null), {
        at: "x".repeat(pad),
        url: `https://bot:${SECRET}@hooks.example/in?token=${SECRET}#${SECRET}`,
      })
      const text = describeError(thrown)
      expect(text.startsWith('object {"at":"x')).toBe(true)
      for (let length = 4; length <= SECRET.length; length++) expect(text).not.toContain(SECRET.slice(0, length))
    }
  })

  it("hides them in describeError, in every string of a log line, and in a span's exception", () => {
    const error = new Error(`GET https://u:${SECRET}@h.example/?k=${SECRET} failed`, {
      cause: new TypeError(`fetch https://h.example/?k=${SECRET}`),
    })
    expect(describeError(error)).toBe("TypeError: fetch https://h.example/?k=***")
    logLine("warn", `seen https://h.example/?k=${SECRET}`, {
      url: `https://u:${SECRET}@h.example/`,
      nested: [{ error }],
    })
    expect(logs.lines).toEqual([
      {
        level: "warn",
        message: "seen https://h.example/?k=***",
        url: "https://***@h.example/",
        nested: [{ error: "TypeError: fetch https://h.example/?k=***" }],
      },
    ])
    const exception = exceptionOf(error)
    expect(exception).toMatchObject({ name: "Error", message: "GET https://***@h.example/?k=*** failed" })
    expect(JSON.stringify(exception)).not.toContain(SECRET)
  })
})
