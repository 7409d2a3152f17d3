/**
 * The simulator's D1: the real binding, seen through what a Worker invocation meets on Cloudflare. The database's
 * clock is the world's (`unixepoch('now', 'subsec')` is read as `dbNow`), each invocation's queries are counted and
 * refused past the plan's limit as Cloudflare does (a batch as one query, or in the stricter mode each of its
 * statements), and a step may make chosen statements fail or answer after the deadline (they commit at once).
 * `sabotage` rewrites statement text: the planted faults of sabotage.test.ts, never src.
 */

export type CountMode = "batch" | "statement"

/** Which statements a step's fault hits: the claim, the release batch, the pause lookup. */
export type Target = "claim" | "release" | "pauses"

export interface Fault {
  target: Target
  kind: "fail" | "late"
}

export const TOO_MANY = "D1_ERROR: Too many API requests by single worker invocation"

const CLOCK = /unixepoch\('now', 'subsec'\)/g

export const targetOf = (text: string): Target | undefined => {
  if (text.startsWith("insert into jobs_leases (name, last_slot")) return "claim"
  // The release batches: a run's release, a lease ended, an hour's entries (a skipped slot's too) and its sweep.
  if (/^(update jobs_leases set|insert into jobs_run_hours|delete from jobs_run_hours)/.test(text)) return "release"
  if (/from "jobs_pauses" where "jobs_pauses"."resumed_at" is null/.test(text)) return "pauses"
  return undefined
}

/** One invocation's D1 as Cloudflare counts it. */
export interface Invocation {
  db: D1Database
  used: number
  /** Queries D1 refused (past the limit), by what they were. */
  refused: string[]
}

export class SimD1 {
  dbNow = 0
  /** How late a late statement answers, ms (past the handlers' D1 deadline). */
  lateMs = 40
  sabotage: (text: string) => string = (text) => text
  constructor(private readonly real: D1Database) {}

  /** A fresh invocation: its own count against `limit`, and `faults` on the statements they target. */
  invocation(limit: number, mode: CountMode, faults: readonly Fault[] = []): Invocation {
    const inv: Invocation = { db: undefined as unknown as D1Database, used: 0, refused: [] }
    const faultOf = (text: string) => {
      const target = targetOf(text)
      return faults.find((fault) => fault.target === target)
    }
    const take = (n: number, what: string) => {
      inv.used += n
      if (inv.used <= limit) return undefined
      inv.refused.push(what)
      return Promise.reject(new Error(TOO_MANY))
    }
    const late = <T>(work: Promise<T>): Promise<T> =>
      work.then((value) => new Promise<T>((resolve) => setTimeout(() => resolve(value), this.lateMs)))
    const fail = () => Promise.reject(new Error("D1_ERROR: simulated fault"))
    const texts = new WeakMap<object, string>()
    const reals = new WeakMap<object, D1PreparedStatement>()
    const wrapStatement = (statement: D1PreparedStatement, text: string): D1PreparedStatement => {
      const proxy = new Proxy(statement, {
        get: (target, property) => {
          const value = Reflect.get(target, property, target)
          if (typeof value !== "function") return value
          if (property === "bind") return (...args: unknown[]) => wrapStatement(value.apply(target, args), text)
          return (...args: unknown[]) => {
            const refused = take(1, text)
            if (refused) return refused
            const fault = faultOf(text)
            if (fault?.kind === "fail") return fail()
            const work = Promise.resolve(value.apply(target, args))
            return fault?.kind === "late" ? late(work) : work
          }
        },
      })
      texts.set(proxy, text)
      reals.set(proxy, statement)
      return proxy
    }
    const wrap = (source: D1Database | D1DatabaseSession): D1Database =>
      new Proxy(source, {
        get: (target, property) => {
          if (property === "prepare") {
            return (query: string) => {
              const text = this.sabotage(query).replace(CLOCK, `(${this.dbNow / 1000})`)
              return wrapStatement(target.prepare(text), text)
            }
          }
          if (property === "batch") {
            return (statements: D1PreparedStatement[]) => {
              const these = statements.map((statement) => texts.get(statement) ?? "")
              const refused = take(mode === "batch" ? 1 : statements.length, `batch: ${these[0]?.slice(0, 40)}`)
              if (refused) return refused
              const fault = these.map(faultOf).find((found) => found !== undefined)
              if (fault?.kind === "fail") return fail()
              const work = target.batch(statements.map((statement) => reals.get(statement) ?? statement))
              return fault?.kind === "late" ? late(work) : work
            }
          }
          if (property === "withSession") {
            return (...args: unknown[]) => wrap((target as D1Database).withSession(...(args as [])))
          }
          if (property === "exec") return () => Promise.reject(new Error("the simulator's jobs never exec"))
          const value = Reflect.get(target, property, target)
          return typeof value === "function" ? value.bind(target) : value
        },
      }) as D1Database
    inv.db = wrap(this.real)
    return inv
  }
}
