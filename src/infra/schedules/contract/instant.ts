const ISO_WITH_OFFSET =
  /^(?<y>\d{4})-(?<mo>\d{2})-(?<d>\d{2})T(?<h>\d{2}):(?<mi>\d{2})(?::(?<s>\d{2})(?:\.(?<f>\d{1,3}))?)?(?:Z|(?<sign>[+-])(?<oh>\d{2}):(?<om>\d{2}))$/

/** Epoch milliseconds from 1970 on, whichever form `at` came in: one rule for all three. */
export function toInstant(value: unknown): number | undefined {
  const ms =
    value instanceof Date
      ? value.getTime()
      : typeof value === "number"
        ? value
        : typeof value === "string"
          ? parseIso(value)
          : undefined
  return ms !== undefined && Number.isSafeInteger(ms) && ms >= 0 ? ms : undefined
}

/** An ISO 8601 time with an offset, strictly: the runtime's Date.parse moves February 30th to March 2nd. */
function parseIso(text: string): number | undefined {
  const { y, mo, d, h, mi, s = "00", f = "", sign, oh = "00", om = "00" } = ISO_WITH_OFFSET.exec(text)?.groups ?? {}
  if (y === undefined || Number(oh) > 23 || Number(om) > 59) return undefined
  const local = Date.UTC(
    Number(y),
    Number(mo) - 1,
    Number(d),
    Number(h),
    Number(mi),
    Number(s),
    Number(f.padEnd(3, "0")),
  )
  // The round trip: a field out of range (day 30 of February, hour 24, second 60) comes back changed.
  if (new Date(local).toISOString().slice(0, 19) !== `${y}-${mo}-${d}T${h}:${mi}:${s}`) return undefined
  return local - (sign === "-" ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000
}
