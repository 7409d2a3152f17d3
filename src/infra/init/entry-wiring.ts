import { HEARTBEAT_CRON } from "../jobs/handlers/heartbeat.ts"
import { entryShape, importsHono, takenNames } from "./entry-shape.ts"
import { applyInsertions, type Insertion } from "./insertions.ts"
import { maskSource, NoTypeScriptError } from "./source-mask.ts"

/** What the wiring needs to know of the Worker beyond its entry. */
export interface WiringContext {
  className: string
  specifiers: { jobs: string; consumers: string }
  typescript: boolean
  /** The name of the Worker's Env type: `Env`, or its typegen script's `--env-interface` (Hono's CloudflareBindings). */
  envType: string
  /** Whether the Worker's own crons had the heartbeat's before init: then its scheduled() still runs on it. */
  ownHeartbeatCron: boolean
  /** The entry's file name (its extension says whether it holds JSX); default `entry.ts`. */
  entry?: string
}

/** The entry wired, or why not and the exact lines to add for its shape. */
export type Wiring = { kind: "wired"; text: string; what: string } | { kind: "manual"; why: string; lines: string[] }

const imports = (source: string, { specifiers }: WiringContext) => [
  ...(importsHono(source) ? [] : ['import { Hono } from "hono";']),
  'import { Jobs, Schedules } from "slotwise";',
  'import { admin } from "slotwise/admin";',
  `import { consumers } from "${specifiers.consumers}";`,
  `import { jobs } from "${specifiers.jobs}";`,
]

const declarations = (context: WiringContext) => {
  const bindings = context.typescript ? `<{ Bindings: ${context.envType} }>` : ""
  return [
    "// slotwise (npx slotwise init): its jobs, and the watchdog that re-arms a stream whose alarm was lost.",
    "const slotwiseJobs = Jobs.registry([...jobs, Schedules.watchdog]);",
    "const slotwiseHeartbeat = Jobs.heartbeat(slotwiseJobs);",
    "// slotwise's admin and dashboard at /admin, behind Authorization: Bearer <ADMIN_TOKEN>.",
    `const slotwiseAdmin = new Hono${bindings}().route("/admin", admin({ jobs: slotwiseJobs, consumers }));`,
    "",
    "// One Durable Object per schedule stream, delivering to the consumers (wrangler binds it as SCHEDULES).",
    `export class ${context.className} extends Schedules.durableObject({ consumers }) {}`,
  ]
}

/** The default export that answers admin and the heartbeat, and hands everything else to the Worker's own. */
function wrapper(own: string, spread: boolean, context: WiringContext, unit: string): string[] {
  const [t1, t2] = [unit, unit + unit]
  const typed = context.typescript
  const heartbeat = context.ownHeartbeatCron
    ? [
        `${t2}// The heartbeat, then the Worker's own scheduled(), which ran on "${HEARTBEAT_CRON}" before slotwise.`,
        `${t2}if (controller.cron === "${HEARTBEAT_CRON}") await slotwiseHeartbeat(controller, env, ctx);`,
        `${t2}await ownWorker.scheduled?.(controller, env, ctx);`,
      ]
    : [
        `${t2}// The heartbeat: the "${HEARTBEAT_CRON}" Cron Trigger runs the jobs due in its minute.`,
        `${t2}if (controller.cron === "${HEARTBEAT_CRON}") return slotwiseHeartbeat(controller, env, ctx);`,
        `${t2}await ownWorker.scheduled?.(controller, env, ctx);`,
      ]
  return [
    "// The Worker's own handlers answer as before; slotwise adds admin and the heartbeat.",
    `const ownWorker${typed ? `: ExportedHandler<${context.envType}>` : ""} = ${own};`,
    "export default {",
    ...(spread ? [`${t1}...ownWorker,`] : []),
    `${t1}async fetch(request, env, ctx) {`,
    `${t2}const { pathname } = new URL(request.url);`,
    `${t2}if (pathname === "/admin" || pathname.startsWith("/admin/")) return slotwiseAdmin.fetch(request, env, ctx);`,
    `${t2}if (ownWorker.fetch === undefined) return new Response("Not Found", { status: 404 });`,
    `${t2}return ownWorker.fetch(request, env, ctx);`,
    `${t1}},`,
    `${t1}async scheduled(controller, env, ctx) {`,
    ...heartbeat,
    `${t1}},`,
    `}${typed ? ` satisfies ExportedHandler<${context.envType}>` : ""};`,
  ]
}

/** Where the slotwise imports go: after the entry's last import, or before its first code (its header comment stays). */
function importsAt(source: string, file?: string): { at: number; before: string; after: string } {
  const code = maskSource(source, file)
  const all = [...code.matchAll(/^import\b[^;'"]*["'][^"']*["'][ \t]*;?/gm)]
  const last = all.at(-1)
  if (last !== undefined) return { at: last.index + last[0].length, before: "\n", after: "" }
  const first = /\S/.exec(code)?.index ?? source.length
  return { at: first, before: "", after: "\n\n" }
}

/** The entry's indentation unit (a tab, or its first indentation of spaces), comments aside. */
const unitOf = (source: string, file?: string) => /^(\t| +)\S/m.exec(maskSource(source, file))?.[1] ?? "\t"

/** Lines to add by hand for an entry init does not wire, in that entry's shape. */
function manualLines(source: string, context: WiringContext, shape: ReturnType<typeof entryShape>): string[] {
  const head = [...imports(source, context), "", ...declarations(context).filter((line) => !line.startsWith("//"))]
  if (shape.kind === "entrypoint") {
    return [
      ...head,
      "",
      "// in your WorkerEntrypoint class:",
      "async scheduled(controller) {",
      `  if (controller.cron === "${HEARTBEAT_CRON}") await slotwiseHeartbeat(controller, this.env, this.ctx);`,
      "}",
      "// and first in its fetch(request):",
      'if (new URL(request.url).pathname.startsWith("/admin")) return slotwiseAdmin.fetch(request, this.env, this.ctx);',
    ]
  }
  return [
    ...head,
    "",
    "// and the Worker's default export answers admin and the heartbeat, the rest as before:",
    ...wrapper("yourWorker /* what the entry exported as default */", true, context, "  "),
  ]
}

/**
 * The entry with slotwise wired in, by insertions only: slotwise's imports after the Worker's, its declarations
 * and a default export at the end that answers /admin and the heartbeat's cron and hands everything else to the
 * Worker's own handlers, whose code and comments stay as they were. `export default {` becomes
 * `const worker = {`; `export default app` moves into the new export. An entry of another shape, or one whose names
 * the wiring would shadow, is not touched: the answer is then the exact lines for that shape.
 */
export function wireEntry(source: string, context: WiringContext): Wiring {
  try {
    return wired(source, context)
  } catch (error) {
    if (!(error instanceof NoTypeScriptError)) throw error
    return { kind: "manual", why: error.message, lines: manualLines(source, context, { kind: "other" }) }
  }
}

function wired(source: string, context: WiringContext): Wiring {
  const file = context.entry
  const shape = entryShape(source, file)
  const taken = takenNames(source, file)
  const hono = importsHono(source) || !/(?<![\w$.])Hono(?![\w$])/.test(maskSource(source, file))
  const shadowed = [...taken, ...(hono ? [] : ["Hono"])]
  if (shape.kind === "entrypoint" || shape.kind === "other" || shadowed.length > 0) {
    const why =
      shape.kind === "entrypoint"
        ? "its default export is a WorkerEntrypoint class"
        : shape.kind === "other"
          ? "it has no `export default { … }` or `export default <name>`"
          : `it already uses the name${shadowed.length === 1 ? "" : "s"} ${shadowed.join(", ")}, which the wiring declares`
    return { kind: "manual", why, lines: manualLines(source, context, shape) }
  }
  const eol = source.includes("\r\n") ? "\r\n" : "\n"
  const unit = unitOf(source, file)
  const own = shape.kind === "object" ? "worker" : shape.name
  const place = importsAt(source, file)
  const lines = (text: string) => text.replace(/\n/g, eol)
  const insertions: Insertion[] = [
    { at: place.at, text: lines(`${place.before}${imports(source, context).join("\n")}${place.after}`) },
  ]
  // `export default {` becomes `const worker = {`; `export default app;` gives its place to nothing.
  const replaced =
    shape.kind === "object"
      ? { at: shape.at, length: shape.length, text: "const worker = " }
      : { at: shape.at, length: shape.length, text: "" }
  const tail = [
    "",
    ...declarations(context),
    "",
    ...wrapper(own, !(shape.kind === "identifier" && shape.hono), context, unit),
  ]
  const end = source.length
  const ending = lines(`${source.endsWith("\n") ? "" : "\n"}${tail.join("\n")}\n`)
  const edited = applyInsertions(source, [...insertions, { at: end, text: ending }])
  // The replaced span moved by the imports' length when they went before it.
  const shift = place.at <= replaced.at ? (insertions[0]?.text.length ?? 0) : 0
  const at = replaced.at + shift
  // A removed `export default app` leaves no second blank line before slotwise's block.
  const text = (edited.slice(0, at) + replaced.text + edited.slice(at + replaced.length)).replace(
    /(?:\r?\n){3,}(?=\/\/ slotwise \(npx slotwise init\))/,
    eol + eol,
  )
  const kind =
    shape.kind === "object"
      ? "its exported handlers"
      : `its ${shape.hono ? "Hono app" : "default export"} ${shape.name}`
  return {
    kind: "wired",
    text,
    what: `wired: ${kind} as before, admin at /admin, the heartbeat, ${context.className}`,
  }
}
