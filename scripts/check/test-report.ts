/**
 * `.ci/run`'s last word on `npm test`: reads vitest's JSON report and exits 1 when it is missing, counts a
 * failed test or a file that failed to load, or ran nothing. vitest's own status is not enough alone: an exit
 * hook in the runner's process once turned a failing run's status into 0.
 *
 * @example
 * node scripts/check/test-report.ts results/vitest.json   # prints "tests: 900 passed, 0 failed, 0 skipped"
 */
import { existsSync, readFileSync } from "node:fs"

interface Report {
  numTotalTests: number
  numPassedTests: number
  numFailedTests: number
  numPendingTests: number
  numFailedTestSuites: number
  success: boolean
}

/** Why the report is red, or an empty list when it is green. */
export function reportProblems(report: Report): string[] {
  const problems: string[] = []
  if (report.numFailedTests > 0) problems.push(`${report.numFailedTests} failed tests`)
  if (report.numFailedTestSuites > 0) problems.push(`${report.numFailedTestSuites} failed files`)
  if (report.numTotalTests === 0) problems.push("no test ran")
  if (report.success !== true && problems.length === 0) problems.push("vitest reported the run unsuccessful")
  return problems
}

if (import.meta.main) {
  const file = process.argv[2] ?? "results/vitest.json"
  if (!existsSync(file)) {
    console.log(`tests: no report (vitest stopped before writing ${file}): red`)
    process.exit(1)
  }
  const report = JSON.parse(readFileSync(file, "utf8")) as Report
  console.log(
    `tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests} skipped`,
  )
  const problems = reportProblems(report)
  if (problems.length > 0) {
    console.log(`tests: the report counts ${problems.join(", ")}: red`)
    process.exit(1)
  }
}
