import { once } from "node:events"
import { createServer, type Server } from "node:net"
import { freePort } from "./ports.ts"

/** Listens on 127.0.0.1:`port` until closed: another checkout's wrangler dev, or anything else. */
export async function holdPort(port: number): Promise<Server> {
  const server = createServer().listen(port, "127.0.0.1")
  await once(server, "listening")
  return server
}

/** An HTTP port whose inspector port (442 above it) is free right now. */
export async function portWithFreeInspector(): Promise<number> {
  for (;;) {
    const inspector = await freePort()
    if (inspector - 442 >= 1024) return inspector - 442
  }
}
