import { isDeepStrictEqual } from "node:util"
import { applyEdits, type FormattingOptions, modify, type ParseError, parse, printParseErrorCode } from "jsonc-parser"
import { applyToValue, type ConfigEdit, type ConfigObject, isObject } from "./edits.ts"
import { ConfigSyntaxError, UnsafeEditError } from "./errors.ts"

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
function formattingOf(text: string): FormattingOptions {
  const eol = text.includes("\r\n") ? "\r\n" : "\n"
  // A property's indentation: a comment's leading space (" * …") says nothing.
  const indent = /^([ \t]+)"/m.exec(text)?.[1] ?? "\t"
  if (indent.startsWith("\t")) return { insertSpaces: false, tabSize: 1, eol }
  return { insertSpaces: true, tabSize: indent.length, eol }
}

/**
 * The text with the edits made by jsonc-parser's `modify`, which edits around comments and keeps them. Each
 * edit is checked: the new text must parse to exactly the old config with that addition, or nothing is changed.
 */
export function editJsonc(file: string, text: string, edits: readonly ConfigEdit[]): string {
  const formattingOptions = formattingOf(text)
  let current = text
  let value = readJsonc(file, text)
  for (const edit of edits) {
    const path = edit.op === "set" ? [edit.key] : [...edit.path, -1]
    try {
      const expected = applyToValue(value, edit)
      const next = applyEdits(current, modify(current, path, edit.value, { formattingOptions, isArrayInsertion: true }))
      if (!isDeepStrictEqual(readJsonc(file, next), expected)) throw new UnsafeEditError(file, edit)
      current = next
      value = expected
    } catch (error) {
      if (error instanceof UnsafeEditError) throw error
      // A result that does not parse, an edit the value cannot take, or jsonc-parser's modify refusing a path.
      throw new UnsafeEditError(file, edit)
    }
  }
  return current
}
