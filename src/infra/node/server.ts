import type { Server } from "node:http"
import type { AddressInfo } from "node:net"
import { serve } from "@hono/node-server"
import { within } from "../deadline.ts"
import type { SlotwiseEnv } from "../env.ts"

/** An app as a Worker exports it: Hono's `app.fetch(request, env, executionCtx)`. */
export interface FetchApp {
  /** Answers one request, handed the replica's env and an execution context as the Workers runtime hands them. */
  fetch(request: Request, env: SlotwiseEnv, executionContext: ExecutionContext): Response | Promise<Response>
}

export interface Listening {
  /** The address it serves, e.g. http://127.0.0.1:8787 (the real port when asked for port 0). */
  url: string
  /** Stops accepting connections and waits at most `ms` for the requests in flight. */
  close(ms: number): Promise<void>
}

/**
 * Serves `app` over HTTP with @hono/node-server, handing every request the replica's env and
 * execution context, as the Workers runtime hands them to `fetch`.
 */
export function listen(
  app: FetchApp,
  env: SlotwiseEnv,
  executionContext: ExecutionContext,
  { port, hostname }: { port: number; hostname: string },
): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch: (request) => app.fetch(request, env, executionContext), port, hostname }, (info) => {
      const { address, port } = info as AddressInfo
      const host = address.includes(":") ? `[${address}]` : address
      resolve({
        url: `http://${host}:${port}`,
        async close(ms) {
          const closed = new Promise<void>((done) => server.close(() => done()))
          // Keep-alive connections with no request would hold close() open until they time out.
          ;(server as Server).closeIdleConnections()
          await within(closed, ms)
        },
      })
    })
    server.once("error", reject)
  })
}
