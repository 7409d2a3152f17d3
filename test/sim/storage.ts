export const FAULT = "SQLITE_IOERR: simulated fault"

/** One step's storage fault: the statement number `at` (0-based) of the step throws. */
export interface Fault {
  at: number | undefined
  calls: number
  fired: boolean
}

/**
 * Makes ctx.storage.sql.exec throw at the armed statement, and shows `running` every statement before it
 * runs (one that throws never runs); returns the undo.
 */
export function injectFaults(sql: SqlStorage, fault: Fault, running: (query: string) => void = () => {}): () => void {
  const raw = sql.exec.bind(sql)
  const patched = sql as unknown as { exec: SqlStorage["exec"] }
  patched.exec = ((query: string, ...bindings: SqlStorageValue[]) => {
    if (fault.at !== undefined && fault.calls++ === fault.at) {
      fault.fired = true
      fault.at = undefined
      throw new Error(FAULT)
    }
    running(query)
    return raw(query, ...bindings)
  }) as SqlStorage["exec"]
  return () => delete (patched as { exec?: unknown }).exec
}

/** Reports every alarm write (null: deleted) before it happens; returns the undo. */
export function watchAlarm(storage: DurableObjectStorage, written: (value: number | null) => void): () => void {
  const alarms = storage as unknown as Pick<DurableObjectStorage, "setAlarm" | "deleteAlarm">
  const setAlarm = alarms.setAlarm.bind(alarms)
  const deleteAlarm = alarms.deleteAlarm.bind(alarms)
  alarms.setAlarm = (at, options) => {
    written(Number(at))
    return setAlarm(at, options)
  }
  alarms.deleteAlarm = (options) => {
    written(null)
    return deleteAlarm(options)
  }
  return () => {
    delete (alarms as { setAlarm?: unknown }).setAlarm
    delete (alarms as { deleteAlarm?: unknown }).deleteAlarm
  }
}
