import { isObject } from "./edits.ts"

/** How the Worker generates its binding types, and the name of the interface they declare. */
export interface Typegen {
  /** The command to print: the Worker's own script (create-cloudflare's `cf-typegen`), else `npx wrangler types`. */
  command: string
  /** `Env`, or the script's `--env-interface` (create-cloudflare's Hono template: CloudflareBindings). */
  envType: string
}

/**
 * The Worker's own type generation, from package.json: a script that runs `wrangler types` (cf-typegen first), so
 * init prints that script instead of a command that would drop its options (`--env-interface CloudflareBindings`).
 */
export function typegenOf(packageJson: unknown): Typegen {
  const scripts = isObject(packageJson) && isObject(packageJson.scripts) ? packageJson.scripts : {}
  const entries = Object.entries(scripts).filter(
    (entry): entry is [string, string] => typeof entry[1] === "string" && /\bwrangler\s+types\b/.test(entry[1]),
  )
  const [name, script] = entries.find(([key]) => key === "cf-typegen") ?? entries[0] ?? []
  if (name === undefined || script === undefined) return { command: "npx wrangler types", envType: "Env" }
  const envType = /--env-interface(?:=|\s+)([A-Za-z_$][\w$]*)/.exec(script)?.[1] ?? "Env"
  return { command: `npm run ${name}`, envType }
}
