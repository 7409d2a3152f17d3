/**
 * A row's incarnation: 48 random bits, stored as an INTEGER (6 bytes) and written in a key as 12 hex digits.
 * Two rows of one id draw the same one about once in 2^48, so their keys never meet in practice.
 */
export function newIncarnation(): number {
  const words = crypto.getRandomValues(new Uint32Array(2))
  return ((words[0] as number) & 0xffff) * 2 ** 32 + (words[1] as number)
}

/**
 * `schedule:<stream>/<id>@<incarnation>:<occurrence>`: the same through every attempt, crash and restart of
 * one occurrence (all three parts are stored in the row), and never the key of an earlier row of the same id
 * (one removed or swept by retention), since a created row draws a new incarnation. A row stored before
 * incarnations existed (null, schema version 3 and older) keeps its key, `schedule:<stream>/<id>:<occurrence>`.
 * Names hold no "@", "/" or ":" (contract/definition.ts, NAME), so neither shape can be read as the other.
 */
export const idempotencyKey = (stream: string, row: { id: string; incarnation: number | null; occurrence: number }) =>
  row.incarnation === null
    ? `schedule:${stream}/${row.id}:${row.occurrence}`
    : `schedule:${stream}/${row.id}@${row.incarnation.toString(16).padStart(12, "0")}:${row.occurrence}`
