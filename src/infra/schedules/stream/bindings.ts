/** A statement run to its end, its rows counted by the store (store.ts). */
export type Exec = <T extends Record<string, SqlStorageValue>>(query: string, ...bindings: SqlStorageValue[]) => T[]

/** Durable Object SQLite takes at most 100 bound parameters in one statement. */
export const MAX_BINDINGS = 100

/** `items` in consecutive parts of at most `size` (a statement's share of MAX_BINDINGS). */
export const chunks = <T>(items: readonly T[], size: number): T[][] =>
  Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size))

/** Statement texts by a key of their shape, built once: the same text for the same shape of write. */
const STATEMENTS = new Map<string, string>()
export function statementOf(key: string, build: () => string): string {
  let text = STATEMENTS.get(key)
  if (text === undefined) {
    text = build()
    STATEMENTS.set(key, text)
  }
  return text
}
