import { readFile } from "node:fs/promises"
import path from "node:path"
import { describe, expect, it } from "vitest"
import { RUNBOOK } from "../../src/infra/alerts/notice.ts"

const root = path.resolve(import.meta.dirname, "../..")

describe("the alert notices' runbook lines", () => {
  it("are each printed in docs/admin.md's table, word for word, one row per rule", async () => {
    const doc = await readFile(path.join(root, "docs/admin.md"), "utf8")
    const rows = Object.fromEntries(
      [...doc.matchAll(/^\| (job-failed|job-missed|heartbeat-late|schedule-failed|stream-overdue) \| (.+) \|$/gm)].map(
        (match) => [match[1], match[2]],
      ),
    )
    expect(rows).toEqual(RUNBOOK)
  })
})
