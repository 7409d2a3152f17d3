// Run only by test/node/exit-status.test.ts, in a child vitest: a file that fails to load.
// @ts-expect-error: the module is missing on purpose.
import { missing } from "./no-such-module.ts"

missing()
