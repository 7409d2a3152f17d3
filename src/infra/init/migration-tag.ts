/**
 * The Durable Object migration tag after `tags` (the Worker's, in order): `v1` for the first, the next `vN` after
 * a `vN`, else `v<count + 1>`; never one already used, since deployed tags are never edited or reused.
 */
export function nextMigrationTag(tags: readonly string[]): string {
  const used = new Set(tags)
  const last = /^([vV])(\d+)$/.exec(tags.at(-1) ?? "")
  const prefix = last?.[1] ?? "v"
  let n = last ? Number(last[2]) + 1 : tags.length + 1
  while (used.has(`${prefix}${n}`)) n++
  return `${prefix}${n}`
}
