import { createRequire } from "node:module"
import path from "node:path"
import type * as TypeScript from "typescript"

/**
 * How init finds TypeScript, whose parser reads the entry: an optional peer dependency of slotwise (a Worker's
 * project almost always has it; create-cloudflare installs it), looked up beside slotwise, then in the Worker's
 * folder. Undefined when neither has it: init then wires no entry and says why.
 */
export function loadTypeScript(cwd = process.cwd()): typeof TypeScript | undefined {
  for (const from of [import.meta.url, path.join(cwd, "package.json")]) {
    try {
      return createRequire(from)("typescript") as typeof TypeScript
    } catch {}
  }
  return undefined
}

/** What init says when it has no TypeScript to read the entry with. */
export const NO_TYPESCRIPT =
  "init reads the entry with TypeScript's parser, which is not installed here (npm install --save-dev typescript, then run init again)"
