import { expect, it } from "vitest"

// Run only by test/node/exit-status.test.ts, in a child vitest: the control, a test that passes.
it("passes", () => {
  expect(1 + 1).toBe(2)
})
