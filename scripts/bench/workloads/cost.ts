import type { SetupClock } from "../lead.ts"
import type { Rows } from "../meter.ts"
import { run } from "../record.ts"
import { figures, note, progress, type SystemName } from "../result.ts"
import { type Target, target } from "../systems.ts"
import { createDue, round, settled, waitFor } from "./common.ts"

/** Pending schedules are due this far ahead: they never come due while measured. */
const FAR_MS = 3_600_000

interface Cost {
  create: Rows
  bytesPer1000: number
  idle: Rows
  deliver: Rows
  /** `lone` deliveries, each the only one due, by an alarm of its own. */
  lone: Rows
}

/**
 * cost: storage rows per schedule created, per successful delivery and per idle alarm, and
 * stored bytes per 1,000 schedules, counted by the same StorageMeter on both objects.
 *
 * - create and stored bytes: one warm-up schedule (the tables exist), then `pending` more due
 *   in an hour; rows counted over those, databaseSize after minus before.
 * - idle alarm: that object's alarm run at once, while its schedules are pending and none is due.
 * - delivery: another object, `deliveries` one-shots due at T0, counted from the end of the
 *   setup until all are delivered and its alarm is gone.
 * - lone delivery: a third object, `lone` times a one-shot delivered by an alarm of its own, run
 *   once it is due: what a delivery costs when nothing else is due with it (about 1.5 s each).
 */
export async function cost(
  pending: number,
  deliveries: number,
  lone: number,
  order: readonly SystemName[],
  clocks: Record<SystemName, SetupClock>,
) {
  const workload = "cost"
  const results: Partial<Record<SystemName, Cost>> = {}
  for (const system of order) {
    const holding = target(system, `cost-pending-${system}`)
    progress(`${workload} ${system}: creating ${pending} pending schedules`)
    const { create, bytesPer1000 } = await createPending(holding, pending, clocks[system])
    progress(`${workload} ${system}: running one idle alarm`)
    const idle = await holding.runAlarm()
    if (idle === null) throw new Error(`${workload} ${system}: no alarm set with ${pending} schedules pending`)
    await holding.quiet()

    const t = target(system, `cost-deliver-${system}`)
    progress(`${workload} ${system}: creating ${deliveries} one-shot schedules due at T0`)
    const { marginMs } = await createDue(t, deliveries, "noop", clocks[system], workload)
    await t.meterStart()
    progress(`${workload} ${system}: T0 in ${marginMs} ms; counting rows until all ${deliveries} are delivered`)
    const seen = run(t.name)
    await waitFor(
      `${workload} ${system}`,
      () => seen.distinct >= deliveries,
      Math.max(0, marginMs) + 60_000 + deliveries * 20,
      () => `${seen.distinct} of ${deliveries} delivered`,
    )
    await settled(t)
    const deliver = await t.meterRead()
    await t.done()
    progress(`${workload} ${system}: ${lone} lone deliveries, each by its own alarm`)
    results[system] = { create, bytesPer1000, idle, deliver, lone: await loneDeliveries(system, lone) }
    progress(`${workload} ${system}: ${JSON.stringify(results[system])}`)
  }
  const per = (rows: Rows, key: keyof Rows, n: number) => round(rows[key] / n, 3)
  figures(workload, results, [
    ["rows read / delivery", (r) => per(r.deliver, "rowsRead", deliveries)],
    ["rows written / delivery", (r) => per(r.deliver, "rowsWritten", deliveries)],
    ["rows written / lone delivery (its own alarm)", (r) => per(r.lone, "rowsWritten", lone)],
    ["rows read / lone delivery (its own alarm)", (r) => per(r.lone, "rowsRead", lone)],
    ["  of which key-value keys read / delivery", (r) => per(r.deliver, "kvRead", deliveries)],
    ["  of which key-value keys written / delivery", (r) => per(r.deliver, "kvWritten", deliveries)],
    ["alarm set/delete calls / delivery", (r) => per(r.deliver, "alarmWrites", deliveries)],
    [`idle alarm rows read (${pending} pending)`, (r) => r.idle.rowsRead],
    [`idle alarm rows written (${pending} pending)`, (r) => r.idle.rowsWritten],
    ["  of which key-value keys read", (r) => r.idle.kvRead],
    ["  of which key-value keys written", (r) => r.idle.kvWritten],
    ["idle alarm set/delete calls", (r) => r.idle.alarmWrites],
    ["rows read / schedule created", (r) => per(r.create, "rowsRead", pending)],
    ["rows written / schedule created", (r) => per(r.create, "rowsWritten", pending)],
    ["stored bytes / 1,000 schedules", (r) => r.bytesPer1000],
  ])
  note(
    workload,
    "rows = SQL cursors' rowsRead/rowsWritten summed over every ctx.storage.sql.exec, plus one row per key of the " +
      "key-value API (get/put/delete/list), as SQLite-backed Durable Objects bill it; the Agents SDK uses the " +
      "key-value API (3 keys read per alarm, e.g. its pending-destroy and memory-limit-strike keys), slotwise does not. " +
      "setAlarm/deleteAlarm calls are counted apart, not as rows. The idle alarm is the object's alarm handler " +
      "run at once while nothing is due.",
  )
}

/** Creates `pending` schedules due in an hour after one warm-up; rows they cost and bytes they take. */
async function createPending(t: Target, pending: number, clock: SetupClock) {
  const far = Date.now() + FAR_MS
  await t.once(0, 1, far, "noop")
  const before = await t.databaseSize()
  await t.meterStart()
  const started = Date.now()
  const step = Math.ceil(pending / 4)
  for (let from = 1; from <= pending; from += step) {
    const to = Math.min(pending + 1, from + step)
    await t.once(from, to, far, "noop")
    clock.add(to - 1, Date.now() - started)
  }
  const create = await t.meterRead()
  const after = await t.databaseSize()
  return { create, bytesPer1000: Math.round(((after - before) / pending) * 1000) }
}

/** `n` one-shots, each the only one due in an alarm of its own (Target.lone): the rows those alarms cost. */
async function loneDeliveries(system: SystemName, n: number): Promise<Rows> {
  const t = target(system, `cost-lone-${system}`)
  const total: Rows = { rowsRead: 0, rowsWritten: 0, kvRead: 0, kvWritten: 0, alarmWrites: 0 }
  // One first, not counted: the object and its tables exist.
  for (let i = 0; i <= n; i++) {
    const rows = await t.lone(i, "noop")
    if (run(t.name).distinct !== i + 1)
      throw new Error(`cost ${system}: lone delivery ${i} was not delivered by its alarm`)
    if (i === 0) continue
    for (const key of Object.keys(total) as Array<keyof Rows>) total[key] += rows[key]
  }
  await t.quiet()
  await t.done()
  return total
}
