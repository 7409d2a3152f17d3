import { connect } from "node:net"
import { setTimeout as sleep } from "node:timers/promises"

/** True when something already accepts connections on 127.0.0.1:`port` (say, another `wrangler dev`). */
export function isListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: "127.0.0.1", port, timeout: 1_000 })
    const done = (listening: boolean) => {
      socket.destroy()
      resolve(listening)
    }
    socket.once("connect", () => done(true))
    socket.once("error", () => done(false))
    socket.once("timeout", () => done(false))
  })
}

/** Polls `GET /health` until it answers {ok:true}; false once `timeoutMs` passes or `signal` aborts. */
export async function waitForHealth(origin: string, timeoutMs: number, signal: AbortSignal): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline && !signal.aborted) {
    try {
      // The first request can wait a second or more while wrangler finishes starting workerd.
      const res = await fetch(`${origin}/health`, { signal: AbortSignal.any([signal, AbortSignal.timeout(5_000)]) })
      const body = (await res.json()) as { ok?: unknown }
      if (res.ok && body.ok === true) return true
    } catch {
      // Not listening yet, or still building: try again.
    }
    await sleep(250, undefined, { signal }).catch(() => {})
  }
  return false
}
