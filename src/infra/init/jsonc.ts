import { isDeepStrictEqual } from "node:util"
import { type ParseError, parse, printParseErrorCode } from "jsonc-parser"
import { lineEndingOf } from "./byte-order-mark.ts"
import { applyToValue, type ConfigEdit, type ConfigObject, isObject } from "./edits.ts"
import { ConfigSyntaxError, UnsafeEditError } from "./errors.ts"
import { applyInsertions } from "./insertions.ts"
import { type JsoncStyle, jsoncInsertions } from "./jsonc-insertions.ts"

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false }

/** A wrangler.jsonc (or wrangler.json) as a value; throws ConfigSyntaxError naming the line of its first error. */
export function readJsonc(file: string, text: string): ConfigObject {
  const errors: ParseError[] = []
  const value: unknown = parse(text, errors, PARSE_OPTIONS)
  const [first] = errors
  if (first !== undefined) {
    const line = text.slice(0, first.offset).split("\n").length
    throw new ConfigSyntaxError(`${file}:${line}: ${printParseErrorCode(first.error)}`)
  }
  if (!isObject(value)) throw new ConfigSyntaxError(`${file}: not a JSON object`)
  return value
}

/** The file's own indentation and line ends, so that what init adds looks like what was there. */
function styleOf(text: string): JsoncStyle {
  // A property's indentation: a comment's leading space (" * …") says nothing.
  return { unit: /^([ \t]+)"/m.exec(text)?.[1] ?? "\t", eol: lineEndingOf(text) }
}

/**
 * The text with the edits made as insertions (jsonc-insertions.ts): after the last entry of an object or array,
 * past the comma and the comment on its line, in the container's own layout (one line or one entry a line).
 * Nothing is rewritten, so every comment stays beside the entry it describes. Each edit is checked: the new text
 * must parse to exactly the old config with that addition, or init refuses and nothing is changed.
 */
export function editJsonc(file: string, text: string, edits: readonly ConfigEdit[]): string {
  const style = styleOf(text)
  let current = text
  let value = readJsonc(file, text)
  for (const edit of edits) {
    try {
      const expected = applyToValue(value, edit)
      const next = applyInsertions(current, jsoncInsertions(current, edit, style))
      if (!isDeepStrictEqual(readJsonc(file, next), expected)) throw new UnsafeEditError(file, edit)
      current = next
      value = expected
    } catch (error) {
      if (error instanceof UnsafeEditError) throw error
      // A result that does not parse, an edit the value cannot take, or a layout the insertions do not handle.
      throw new UnsafeEditError(file, edit)
    }
  }
  return current
}
