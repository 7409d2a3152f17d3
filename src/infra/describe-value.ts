/** A value as an error message quotes it: JSON where it can be, and never a throw (bigints, cycles, null prototypes). */
export function describeValue(value: unknown): string {
  if (typeof value === "bigint") return `${value}n`
  if (typeof value === "function") return "a function"
  if (typeof value === "symbol") return value.toString()
  try {
    return JSON.stringify(value) ?? "undefined"
  } catch {
    return "a value JSON cannot carry"
  }
}
