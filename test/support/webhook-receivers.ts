import { once } from "node:events"
import { createServer, type Server } from "node:http"
import type { TestProject } from "vitest/node"

/** One request a receiver saw, as the test reads it back. */
export interface Seen {
  method: string
  path: string
  idempotencyKey: string | null
  body: string
}

/** The local receivers' origins, handed to the Workers tests through `inject("webhookReceivers")`. */
export interface WebhookReceivers {
  /** Answers every POST with 307 (308 for a path under /308/) to the same path on `target`; `GET /seen` lists what it saw. */
  redirector: string
  /** Answers every POST with 200 (NNN for a path under /status/NNN/); `GET /seen` lists what it saw. */
  target: string
}

declare module "vitest" {
  export interface ProvidedContext {
    webhookReceivers: WebhookReceivers
  }
}

/** A receiver on a free port of 127.0.0.1 that records each POST and answers it with `answer`. */
async function receiver(answer: (path: string) => { status: number; headers?: Record<string, string> }) {
  const seen: Seen[] = []
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/"
    if (req.method === "GET" && path === "/seen") {
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(seen))
      return
    }
    const chunks: Buffer[] = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const key = req.headers["idempotency-key"]
      seen.push({
        method: req.method ?? "",
        path,
        idempotencyKey: typeof key === "string" ? key : null,
        body: Buffer.concat(chunks).toString(),
      })
      const { status, headers } = answer(path)
      res.writeHead(status, headers).end()
    })
  })
  server.listen(0, "127.0.0.1")
  await once(server, "listening")
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("no TCP port was assigned")
  return { server, origin: `http://127.0.0.1:${address.port}` }
}

/** vitest globalSetup: real HTTP receivers the Worker's own fetch reaches, so redirect handling is workerd's. */
export default async function setup(project: TestProject) {
  const target = await receiver((path) => ({ status: Number(/^\/status\/(\d{3})\//.exec(path)?.[1] ?? 200) }))
  const redirector = await receiver((path) => ({
    status: path.startsWith("/308/") ? 308 : 307,
    headers: { location: `${target.origin}${path}` },
  }))
  project.provide("webhookReceivers", { redirector: redirector.origin, target: target.origin })
  return async () => {
    await Promise.all([redirector, target].map(({ server }) => new Promise((done) => server.close(done))))
  }
}
