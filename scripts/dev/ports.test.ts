import type { Server } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import { isListening } from "./health.ts"
import { inspectorPort } from "./ports.ts"
import { holdPort, portWithFreeInspector } from "./test-ports.ts"

const held: Server[] = []

const hold = async (port: number) => {
  held.push(await holdPort(port))
}

afterEach(async () => {
  await Promise.all(held.splice(0).map((server) => new Promise((done) => server.close(done))))
})

describe("npm start's inspector port", () => {
  it("follows PORT: 442 above it, so the default 8787 keeps 9229 and PORT=8788 takes 9230", async () => {
    const port = await portWithFreeInspector()
    expect(await inspectorPort(port)).toBe(port + 442)
  })

  it("takes a free port when the one PORT points at is taken, or past 65535", async () => {
    const port = await portWithFreeInspector()
    await hold(port + 442)
    const taken = await inspectorPort(port)
    expect(taken).not.toBe(port + 442)
    expect(await isListening(taken)).toBe(false)
    expect(await inspectorPort(65_500)).toBeLessThanOrEqual(65_535)
  })
})
