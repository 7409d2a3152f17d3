/**
 * The lines the bench prints from inside workerd and run.ts reads back: progress
 * (`[bench] ...`) and results (`[bench-result] {json}`). Plain TypeScript, loaded by both sides.
 */

export const PROGRESS = "[bench] "
export const RESULT = "[bench-result] "

export type SystemName = "slotwise" | "agents"
export const SYSTEMS: readonly SystemName[] = ["slotwise", "agents"]

/** One row of the table: a metric of a workload, for both systems (null: not measured for that one). */
export interface Figure {
  type: "figure"
  workload: string
  metric: string
  slotwise: number | null
  agents: number | null
}

/** A fact about a run that is not a number: setup order, defaults, a setup that finished late. */
export interface Note {
  type: "note"
  workload: string
  text: string
}

export type Result = Figure | Note

export function progress(text: string): void {
  console.log(`${PROGRESS}${text}`)
}

export function figure(workload: string, metric: string, values: Partial<Record<SystemName, number>>): void {
  const row: Figure = {
    type: "figure",
    workload,
    metric,
    slotwise: values.slotwise ?? null,
    agents: values.agents ?? null,
  }
  console.log(`${RESULT}${JSON.stringify(row)}`)
}

export function note(workload: string, text: string): void {
  const row: Note = { type: "note", workload, text }
  console.log(`${RESULT}${JSON.stringify(row)}`)
}

/** Emits one figure per metric, each read from both systems' results. */
export function figures<R>(
  workload: string,
  results: Partial<Record<SystemName, R>>,
  metrics: ReadonlyArray<readonly [string, (result: R) => number]>,
): void {
  for (const [metric, read] of metrics) {
    const values: Partial<Record<SystemName, number>> = {}
    for (const system of SYSTEMS) {
      const result = results[system]
      if (result !== undefined) values[system] = read(result)
    }
    figure(workload, metric, values)
  }
}
