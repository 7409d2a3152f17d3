/**
 * Rules src is known to break: issue 45's defects whose fix is not merged yet, counted by the seeds instead of
 * failing them. Each has a pinned repro in known.test.ts; remove its entry when the fix lands (known.test.ts then fails).
 */
export const KNOWN: Record<string, string> = {
  "history-old-replica":
    "a 0.1.0 replica's run writes no hour entry: the history shows its slot claimed or missed until today's version next releases that job, which folds it (i45)",
  "slot-taken-again":
    "a slot whose run gave up on a late claim (or ran unrecorded) is said taken again, with a second line and entry, when a late message or replica asks for it (i45's refusal reads the run history only)",
  "slot-taken-twice":
    "a queue batch holding an older slot's message twice (a redelivery) says that slot taken twice, with two entries (i45 makes only the newest slot's twin silent)",
}
