import { Agent, type Schedule } from "agents"
import { StorageMeter } from "./meter.ts"
import { FAILURES_BEFORE_SUCCESS, type Mark, markOf, run } from "./record.ts"

/**
 * An Agents SDK Agent doing what the slotwise consumers do: `noop` records its start and
 * succeeds, `flaky` throws twice then succeeds. Its storage is metered like the stream's.
 * Everything else is the SDK as shipped, retry defaults included.
 */
export class BenchAgent extends Agent<Cloudflare.Env> {
  readonly meter: StorageMeter
  /**
   * The due time in ms of each job being run, by schedule id: the callback is handed
   * `schedule.time` in whole seconds only. Read for the lateness figures, never acted on.
   */
  private readonly exactDue = new Map<string, number>()

  constructor(ctx: DurableObjectState, env: Cloudflare.Env) {
    const meter = new StorageMeter(ctx.storage)
    super(ctx, env)
    this.meter = meter
    const scheduler = this.scheduler
    const onJob = scheduler.onJob.bind(scheduler)
    scheduler.onJob = (context) => {
      this.exactDue.set(context.job.id, context.job.time)
      return onJob(context)
    }
  }

  async noop(payload: unknown, schedule: Schedule<unknown>): Promise<void> {
    const startedAt = Date.now()
    this.note(markOf(payload), schedule, startedAt, true)
  }

  async flaky(payload: unknown, schedule: Schedule<unknown>): Promise<void> {
    const startedAt = Date.now()
    const mark = markOf(payload)
    const ok = run(mark.run).attempt(mark.i) > FAILURES_BEFORE_SUCCESS
    this.note(mark, schedule, startedAt, ok)
    if (!ok) throw new Error("bench: this attempt fails")
  }

  private note(mark: Mark, schedule: Schedule<unknown>, startedAt: number, ok: boolean): void {
    const dueAt = schedule.time * 1000
    const exactDueAt = this.exactDue.get(schedule.id) ?? dueAt
    this.exactDue.delete(schedule.id)
    run(mark.run).add({ i: mark.i, startedAt, dueAt, exactDueAt, ok })
  }
}
