import { createServer } from "node:net"
import { isListening } from "./health.ts"

/** How far workerd's inspector sits above the HTTP port: the default 8787 keeps DevTools' usual 9229. */
const INSPECTOR_OFFSET = 9229 - 8787
const MAX_PORT = 65_535

/** A port nothing listens on at this moment on 127.0.0.1, as the system hands one out. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1")
  await new Promise((resolve) => server.once("listening", resolve))
  const address = server.address()
  await new Promise((resolve) => server.close(resolve))
  if (address === null || typeof address === "string") throw new Error("no TCP port was handed out")
  return address.port
}

/**
 * The inspector port of a `wrangler dev` serving `port`: `port` + 442 (9229 for 8787), so checkouts
 * started side by side on their own PORT never reach for the same one; a free port when that one is taken.
 */
export async function inspectorPort(port: number): Promise<number> {
  const follows = port + INSPECTOR_OFFSET
  if (follows <= MAX_PORT && !(await isListening(follows))) return follows
  return freePort()
}
