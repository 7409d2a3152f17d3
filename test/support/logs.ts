import { afterEach, vi } from "vitest"

/** Captures the structured JSON lines written through console.debug/log/warn/error. */
export function captureLogs() {
  const lines: Array<Record<string, unknown>> = []
  const record = (...args: unknown[]) => {
    const [first] = args
    if (typeof first !== "string") return
    try {
      lines.push(JSON.parse(first))
    } catch {
      // not one of ours
    }
  }
  const spies = (["debug", "log", "warn", "error"] as const).map((method) =>
    vi.spyOn(console, method).mockImplementation(record),
  )
  afterEach(() => {
    lines.length = 0
  })
  return {
    lines,
    of: (message: string) => lines.filter((line) => line.message === message),
    restore: () => {
      for (const spy of spies) spy.mockRestore()
    },
  }
}
