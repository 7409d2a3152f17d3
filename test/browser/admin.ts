import type { LocalWorker } from "./worker.ts"

const REQUEST_TIMEOUT_MS = 15_000

export type AdminCall = <T = Record<string, unknown>>(method: string, path: string, body?: unknown) => Promise<T>

/** The admin API as the test's setup uses it: JSON in and out, any non-2xx answer throws with its body. */
export function adminClient(worker: LocalWorker): AdminCall {
  return async (method, path, body) => {
    const res = await fetch(`${worker.origin}/admin${path}`, {
      method,
      headers: {
        authorization: `Bearer ${worker.token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    })
    const text = await res.text()
    if (!res.ok) throw new Error(`${method} /admin${path} answered ${res.status}: ${text}`)
    return JSON.parse(text)
  }
}
