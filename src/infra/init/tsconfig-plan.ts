import { applyEdits, modify, parse } from "jsonc-parser"
import { lineEndingOf } from "./byte-order-mark.ts"
import { isObject } from "./edits.ts"
import { InitRefusal } from "./errors.ts"

/** moduleResolution values that cannot read a package's `exports` (slotwise has no other entry point for types). */
const LEGACY = new Set(["node", "node10", "classic"])
/** `module` values under which tsc resolves through `exports` by default. */
const MODERN_MODULES = new Set(["node16", "node18", "node20", "nodenext", "preserve"])
/** `module` values `"moduleResolution": "bundler"` accepts (ES modules or preserve). */
const BUNDLER_MODULES = /^(es20\d\d|es6|esnext|preserve)$/

/** The tsconfig's text with moduleResolution set to bundler, or undefined when it reads `exports` already. */
export interface TsconfigEdit {
  after: string
  what: string
}

/**
 * What tsconfig.json needs for `import … from "slotwise"` to type-check: a moduleResolution that reads the package's
 * `exports` (create-cloudflare's scheduled and Durable Object templates say `"node"`, which does not). It is set
 * to `"bundler"`, what wrangler's esbuild does, by an edit of that one value (comments kept). Throws InitRefusal
 * with the one-line edit where `module` rules bundler out. A tsconfig that `extends` another and sets neither is
 * left as it is.
 */
export function planTsconfig(file: string, text: string): TsconfigEdit | undefined {
  const value: unknown = parse(text, [], { allowTrailingComma: true, disallowComments: false })
  if (!isObject(value)) return undefined
  const options = isObject(value.compilerOptions) ? value.compilerOptions : {}
  const resolution = typeof options.moduleResolution === "string" ? options.moduleResolution.toLowerCase() : undefined
  const module = typeof options.module === "string" ? options.module.toLowerCase() : undefined
  if (resolution !== undefined && !LEGACY.has(resolution)) return undefined
  if (resolution === undefined && (value.extends !== undefined || (module && MODERN_MODULES.has(module))))
    return undefined
  const now = resolution === undefined ? "not set" : `"${options.moduleResolution}"`
  if (module === undefined || !BUNDLER_MODULES.test(module)) {
    throw new InitRefusal(
      `${file}: "moduleResolution" is ${now}, which cannot read slotwise's package exports; set ` +
        `"module": "es2022" and "moduleResolution": "bundler" in compilerOptions; init changed nothing`,
    )
  }
  const unit = /^([ \t]+)"/m.exec(text)?.[1] ?? "\t"
  const formattingOptions = unit.startsWith("\t")
    ? { insertSpaces: false, tabSize: 1, eol: lineEndingOf(text) }
    : { insertSpaces: true, tabSize: unit.length, eol: lineEndingOf(text) }
  const edits = modify(text, ["compilerOptions", "moduleResolution"], "bundler", { formattingOptions })
  return {
    after: applyEdits(text, edits),
    what: `"moduleResolution": "bundler" (was ${now}, which cannot read slotwise's package exports)`,
  }
}
