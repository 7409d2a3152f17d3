import { note, type SystemName } from "./result.ts"

/** Rounds of a real-time workload in a full run: one short burst is at the mercy of one collection or JIT pause. */
export const ROUNDS = 3

/**
 * Runs `measure` for each system `rounds` times, the order flipping from round to round, and
 * answers each system's median round by `rate` (every figure of a system comes from that one
 * round), with each round's rate noted.
 */
export async function inRounds<R>(
  workload: string,
  order: readonly SystemName[],
  rounds: number,
  measure: (system: SystemName, round: number) => Promise<R>,
  rate: (result: R) => number,
): Promise<{ median: Partial<Record<SystemName, R>>; best: Partial<Record<SystemName, number>> }> {
  const all: Partial<Record<SystemName, R[]>> = {}
  for (let round = 1; round <= rounds; round++) {
    for (const system of round % 2 === 1 ? order : [...order].reverse()) {
      const result = await measure(system, round)
      all[system] = [...(all[system] ?? []), result]
    }
  }
  const median: Partial<Record<SystemName, R>> = {}
  const best: Partial<Record<SystemName, number>> = {}
  for (const [system, results] of Object.entries(all) as Array<[SystemName, R[]]>) {
    const sorted = [...results].sort((a, b) => rate(a) - rate(b))
    median[system] = sorted[Math.floor((sorted.length - 1) / 2)]
    best[system] = rate(sorted.at(-1) as R)
    if (rounds > 1) note(workload, `${system}: ${results.map(rate).join(", ")} a second in its ${rounds} rounds`)
  }
  return { median, best }
}
