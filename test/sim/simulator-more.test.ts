import { seedSuite } from "./suite.ts"

// A second file, so that vitest runs the two halves of the fixed seeds side by side.
seedSuite(
  "schedule stream simulator (seeds 13-24)",
  Array.from({ length: 12 }, (_, i) => i + 13),
)
