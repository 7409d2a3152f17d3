import { expect, it } from "vitest"

// Run only by test/node/exit-status.test.ts, in a child vitest: a test that fails on purpose.
it("fails on purpose", () => {
  expect(1 + 1).toBe(3)
})
