/**
 * D1 takes a string (a bound JSON) of at most 2,000,000 bytes. A UTF-16 unit is at most 3 bytes of UTF-8, so a
 * JSON of at most this many units stays within it: where the batched claim and release cut their parameter.
 */
export const JSON_CHUNK_MAX_UNITS = 600_000

/** `"key":value` members joined into JSON objects, each cut before it would pass `maxUnits`; none when no member. */
export function jsonObjects(members: Iterable<string>, maxUnits = JSON_CHUNK_MAX_UNITS): string[] {
  const objects: string[] = []
  let current: string[] = []
  let units = 2
  for (const member of members) {
    if (current.length > 0 && units + member.length + 1 > maxUnits) {
      objects.push(`{${current.join(",")}}`)
      current = []
      units = 2
    }
    current.push(member)
    units += member.length + 1
  }
  if (current.length > 0) objects.push(`{${current.join(",")}}`)
  return objects
}
