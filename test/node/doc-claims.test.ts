import { readdirSync, readFileSync } from "node:fs"
import path from "node:path"
import { describe, expect, it } from "vitest"

const root = path.resolve(import.meta.dirname, "../..")
const read = (file: string) => readFileSync(path.join(root, file), "utf8")

describe("what the docs name is what the code has", () => {
  it("README's export table names every value slotwise/portable exports (its API report)", () => {
    const report = read("api/slotwise-portable.api.md").replaceAll("\r\n", "\n")
    const row = read("README.md")
      .split("\n")
      .find((line) => line.startsWith("| `slotwise/portable` |")) as string
    const named = new Set([...row.matchAll(/`([\w.]+)`/g)].map((match) => match[1]))
    const values = [...report.matchAll(/^export (?:declare )?(?:const|function|class) (\w+)/gm)].map((m) => m[1])
    const members = (namespace: string) =>
      (new RegExp(`declare namespace ${namespace} \\{\\n\\s+export \\{([^}]*)\\}`).exec(report)?.[1] ?? "")
        .split(",")
        .map((name) => name.trim())
        // The namespace's types (WorkflowParams, …) are "the types of their arguments and answers".
        .filter((name) => /^[a-z]/.test(name))
    const missing = [...values, ...members("Jobs"), ...members("Schedules")].filter((name) => !named.has(name))
    expect(members("Schedules")).toContain("workflowInstanceId")
    expect(missing).toEqual([])
  })

  it("jobs.md's ctx comment names every member of JobContext", () => {
    const context =
      /export interface JobContext \{([\s\S]*?)\n\}/.exec(read("src/infra/jobs/contract/definition.ts"))?.[1] ?? ""
    const members = [...context.matchAll(/^ {2}(\w+)[?(:]/gm)].map((match) => match[1])
    const comment = /\/\/ ctx: \{ ([^}]*) \}/.exec(read("docs/jobs.md"))?.[1]?.split(", ")
    expect(members.length).toBeGreaterThan(5)
    expect(comment).toEqual(members)
  })

  it("the guide names the migrations slotwise-migrations copies after the adopter's 0001", () => {
    const shipped = readdirSync(path.join(root, "src/infra/migrations")).filter((file) => file.endsWith(".sql"))
    const copied = shipped.map((file, i) => `${String(i + 2).padStart(4, "0")}_slotwise_${file.replace(/^\d+_/, "")}`)
    expect(read("docs/add-to-a-worker.md")).toContain(
      `\`slotwise-migrations\` adds \`${copied[0]}\` … \`${copied.at(-1)}\``,
    )
  })
})
