/**
 * Rules src is known to break: issue 45's defects whose fix is not merged yet, counted by the seeds instead of
 * failing them. Each has a pinned repro in known.test.ts; remove its entry when the fix lands (known.test.ts then fails).
 */
export const KNOWN: Record<string, string> = {}
