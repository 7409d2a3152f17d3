import { isDeepStrictEqual } from "node:util"
import { type AST, getStaticTOMLValue, ParseError, parseTOML } from "toml-eslint-parser"
import { lineEndingOf } from "./byte-order-mark.ts"
import { applyToValue, type ConfigEdit, type ConfigObject, EditShapeError } from "./edits.ts"
import { ConfigSyntaxError, UnsafeEditError } from "./errors.ts"
import { applyInsertions } from "./insertions.ts"
import { insertionsFor, UnsupportedLayout } from "./toml-insertions.ts"

/** A wrangler.toml's syntax tree; throws ConfigSyntaxError naming the line and column of its first error. */
export function parseTomlFile(file: string, text: string): AST.TOMLProgram {
  try {
    return parseTOML(text)
  } catch (error) {
    if (!(error instanceof ParseError)) throw error
    throw new ConfigSyntaxError(`${file}:${error.lineNumber}:${error.column}: ${error.message}`)
  }
}

/** A wrangler.toml as a value. */
export const readToml = (file: string, text: string): ConfigObject =>
  getStaticTOMLValue(parseTomlFile(file, text)) as ConfigObject

/**
 * The text with the edits made as insertions at places a real TOML parser (toml-eslint-parser) locates: after
 * the last top-level key, after an array of tables' last element (and its sub-tables), inside an inline array
 * or table, or at the end. Nothing is rewritten, so comments and layout stay. Each edit is checked: the new
 * text must parse to exactly the old config with that addition, or init refuses and changes nothing.
 */
export function editToml(file: string, text: string, edits: readonly ConfigEdit[]): string {
  const eol = lineEndingOf(text)
  let current = text
  let value = readToml(file, text)
  for (const edit of edits) {
    try {
      const expected = applyToValue(value, edit)
      const next = applyInsertions(current, insertionsFor(parseTomlFile(file, current), current, edit, eol))
      if (!isDeepStrictEqual(readToml(file, next), expected)) throw new UnsafeEditError(file, edit)
      current = next
      value = expected
    } catch (error) {
      if (error instanceof ConfigSyntaxError || error instanceof UnsupportedLayout || error instanceof EditShapeError) {
        throw new UnsafeEditError(file, edit)
      }
      throw error
    }
  }
  return current
}
