/**
 * Where a CPU profile of the alarm path spends its time (`npm run bench:profile`, profile.ts): each
 * sample's time goes to one bucket, chosen by the innermost frame of its stack that a rule names,
 * over the window from the first to the last sample inside the stream's alarm. Pure: a parsed
 * `.cpuprofile` in, milliseconds per bucket out.
 */

/** A `.cpuprofile` as the DevTools protocol's Profiler.stop answers it (the fields used here). */
export interface CpuProfile {
  nodes: ReadonlyArray<{
    id: number
    callFrame: { functionName: string; url: string }
    children?: readonly number[]
  }>
  startTime: number
  endTime: number
  samples: readonly number[]
  timeDeltas: readonly number[]
}

export const BUCKETS = [
  "alarm entry",
  "select and claim",
  "dispatch",
  "deadline timers",
  "consumer",
  "settlement",
  "re-arm",
  "output-gate waits / idle",
  "garbage collection",
  "logging",
  "spans",
  "other",
] as const
export type Bucket = (typeof BUCKETS)[number]

interface Rule {
  bucket: Bucket
  /** The frame's file (its URL ends with it), or any file when absent. */
  file?: RegExp
  /** The frame's function name, or any function when absent. */
  name?: RegExp
}

/** Innermost match wins; within one frame the first rule that matches. */
const RULES: readonly Rule[] = [
  { bucket: "output-gate waits / idle", name: /^\((idle|program)\)$/ },
  { bucket: "garbage collection", name: /^\(garbage collector\)$/ },
  { bucket: "logging", file: /\/infra\/log\.ts$/ },
  // The test runtime forwards every console line to vitest over RPC: a log line's cost here.
  { bucket: "logging", name: /^sendPendingConsoleLogs$/ },
  { bucket: "logging", file: /\/vitest\/dist\/chunks\/console\./ },
  { bucket: "spans", file: /\/infra\/tracing\// },
  { bucket: "deadline timers", file: /\/infra\/deadline\.ts$/ },
  { bucket: "consumer", file: /\/scripts\/bench\/(consumers|record)\.ts$/ },
  { bucket: "re-arm", file: /\/schedules\/(stream\/(alarm|directory-recorder)\.ts|directory\/)/ },
  { bucket: "settlement", file: /\/schedules\/stream\/settlement\.ts$/ },
  { bucket: "settlement", file: /\/schedules\/stream\/tick\.ts$/, name: /^(settle|afterSettling)$/ },
  { bucket: "select and claim", file: /\/schedules\/stream\/delivery-claim\.ts$/ },
  { bucket: "select and claim", file: /\/schedules\/stream\/tick\.ts$/, name: /claim/i },
  { bucket: "dispatch", file: /\/schedules\/(stream\/dispatch\.ts|contract\/consumer\.ts)$/ },
  { bucket: "dispatch", file: /\/schedules\/stream\/tick\.ts$/, name: /deliver/i },
  { bucket: "alarm entry", file: /\/schedules\/stream\/(tick|schedule-stream|retention)\.ts$/ },
]

/**
 * Frames that work for whoever calls them (the SQL, the pure transitions): their time goes to the
 * caller's bucket, as the claim's SQL is the claim's and the settlement's the settlement's.
 */
const SHARED = /\/schedules\/stream\/(store|row|columns|bindings|ledger|row-events|journal|feed|core)\.ts$/

/** The bucket of one stack, given leaf first. */
export function bucketOf(stack: ReadonlyArray<{ functionName: string; url: string }>): Bucket {
  for (const frame of stack) {
    if (SHARED.test(frame.url)) continue
    for (const rule of RULES) {
      if (rule.name && !rule.name.test(frame.functionName)) continue
      if (rule.file && !rule.file.test(frame.url)) continue
      return rule.bucket
    }
  }
  return "other"
}

/** True for a stack inside a tick (Ticker.tick, its own frame): what places the window. */
const inAlarm = (stack: ReadonlyArray<{ functionName: string; url: string }>) =>
  stack.some((frame) => frame.functionName === "tick" && frame.url.endsWith("/schedules/stream/tick.ts"))

export interface Breakdown {
  /** Milliseconds of samples per bucket, inside the window. */
  ms: Record<Bucket, number>
  /** The window: from the first to the last sample inside a tick, in ms. */
  windowMs: number
  /** Samples inside the window, and of them, inside a tick. */
  samples: number
  tickSamples: number
}

/** Each sample's time (its delta to the next) attributed to its stack's bucket, over the alarm's window. */
export function breakdown(profile: CpuProfile): Breakdown {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]))
  const parent = new Map<number, number>()
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)
  const stacks = new Map<number, { bucket: Bucket; tick: boolean }>()
  const stackOf = (id: number) => {
    let found = stacks.get(id)
    if (!found) {
      const frames = []
      for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
        const node = byId.get(at)
        if (node) frames.push(node.callFrame)
      }
      found = { bucket: bucketOf(frames), tick: inAlarm(frames) }
      stacks.set(id, found)
    }
    return found
  }
  const n = profile.samples.length
  // A sample lasts until the next one; the last lasts until the profile's end.
  const times: number[] = []
  let t = profile.startTime
  for (let i = 0; i < n; i++) {
    t += profile.timeDeltas[i] ?? 0
    times.push(t)
  }
  times.push(profile.endTime)
  let first = -1
  let last = -1
  for (let i = 0; i < n; i++) {
    if (stackOf(profile.samples[i] as number).tick) {
      if (first < 0) first = i
      last = i
    }
  }
  const ms = Object.fromEntries(BUCKETS.map((bucket) => [bucket, 0])) as Record<Bucket, number>
  if (first < 0) return { ms, windowMs: 0, samples: 0, tickSamples: 0 }
  let tickSamples = 0
  for (let i = first; i <= last; i++) {
    const stack = stackOf(profile.samples[i] as number)
    if (stack.tick) tickSamples++
    ms[stack.bucket] += Math.max(0, (times[i + 1] as number) - (times[i] as number)) / 1000
  }
  const windowMs = ((times[last + 1] as number) - (times[first] as number)) / 1000
  return { ms, windowMs, samples: last - first + 1, tickSamples }
}

/** The breakdown as a Markdown table: ms in all, µs per delivery, share of the window. */
export function breakdownTable(result: Breakdown, deliveries: number): string {
  const rows = BUCKETS.map((bucket) => {
    const ms = result.ms[bucket]
    const share = result.windowMs > 0 ? (100 * ms) / result.windowMs : 0
    return `| ${bucket} | ${ms.toFixed(1)} | ${((ms * 1000) / deliveries).toFixed(1)} | ${share.toFixed(1)}% |`
  })
  const total = `| **window** | ${result.windowMs.toFixed(1)} | ${((result.windowMs * 1000) / deliveries).toFixed(1)} | 100% |`
  return ["| where | ms | µs / delivery | share |", "|---|---:|---:|---:|", ...rows, total].join("\n")
}
