import type { StreamNamespace } from "../../env.ts"
import { SLOTWISE_VERSION } from "../../version.ts"
import { type Reply, refuse } from "../contract/reply.ts"
import { STREAM_PROTOCOL, type StreamProtocol, type StreamRpc } from "../contract/rpc.ts"

/** The stream's methods that answer a Reply: the ones a caller of another release may find missing. */
const REPLYING = [
  "upsert",
  "get",
  "list",
  "cancel",
  "backfill",
  "resume",
  "trigger",
  "remove",
  "events",
  "summary",
  "history",
  "nudge",
]

/** workerd's words for a call to a method the object's class does not have. */
const MISSING_METHOD = /does not implement|is not a function|no such method/i

type Stub = Record<string, ((...args: unknown[]) => Promise<unknown>) | undefined>

/**
 * The stream's Durable Object as its RPC (StreamRpc), each call answering a Reply; admin and the client map it to
 * HTTP and typed errors. During a gradual deployment the stream may run another release than this Worker: a
 * method its class does not have is answered as an `unavailable` refusal that names the version skew (both
 * releases, both protocols), never as an untyped RPC error.
 *
 * @example
 * ```ts
 * const reply = await streamRpc(env.SCHEDULES, "tenant-42").history("tenant-42", "day")
 * if (!reply.ok) console.log(reply.error.message) // "... runs an earlier slotwise ... (version skew) ..."
 * ```
 */
export function streamRpc(namespace: StreamNamespace, name: string): StreamRpc {
  const stub = namespace.get(namespace.idFromName(name)) as unknown as Stub
  const rpc: Record<string, (...args: unknown[]) => Promise<unknown>> = {
    protocol: () => protocolOf(stub),
  }
  for (const method of REPLYING) {
    rpc[method] = async (...args) => {
      try {
        return await (stub[method] as (...args: unknown[]) => Promise<unknown>)(...args)
      } catch (error) {
        if (!MISSING_METHOD.test(String((error as Error | undefined)?.message ?? error))) throw error
        return skew(name, method, await protocolOf(stub).catch(() => undefined))
      }
    }
  }
  return rpc as unknown as StreamRpc
}

/** The stream's marker; a stream from before markers (0.1.0) speaks protocol 1. */
async function protocolOf(stub: Stub): Promise<StreamProtocol> {
  try {
    return await (stub.protocol as () => Promise<StreamProtocol>)()
  } catch (error) {
    if (!MISSING_METHOD.test(String((error as Error | undefined)?.message ?? error))) throw error
    return { protocol: 1, release: "0.1.0" }
  }
}

function skew(stream: string, method: string, theirs: StreamProtocol | undefined): Reply<never> {
  const them = theirs ? `slotwise ${theirs.release}, stream protocol ${theirs.protocol}` : "another slotwise release"
  const which = theirs === undefined || theirs.protocol < STREAM_PROTOCOL ? "an earlier" : "another"
  return refuse(
    "unavailable",
    `stream "${stream}": version skew: its ScheduleStream runs ${which} release (${them}) than this Worker ` +
      `(slotwise ${SLOTWISE_VERSION}, stream protocol ${STREAM_PROTOCOL}), which has no ${method}(); nothing was ` +
      "changed. This passes when both run one release (a gradual deployment ends, or a rollback completes): see docs/upgrading.md",
  )
}
