import { createScanner, type Node, parseTree } from "jsonc-parser"
import { type ConfigEdit, type ConfigValue, isObject } from "./edits.ts"
import type { Insertion } from "./insertions.ts"

// jsonc-parser's SyntaxKind is a const enum, which a type-stripped build cannot read: its values, as numbers.
const COMMA = 5
const LINE_COMMENT = 12
const BLOCK_COMMENT = 13
const WHITESPACE = 15

/** The file's indentation unit and line ending. */
export interface JsoncStyle {
  unit: string
  eol: string
}

/** A layout the insertions do not handle (a value where an object or array should be): init leaves it to the user. */
export class UnsupportedJsonc extends Error {
  override name = "UnsupportedJsonc"
}

const lineStart = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1
const indentAt = (text: string, at: number) => /^[ \t]*/.exec(text.slice(lineStart(text, at)))?.[0] ?? ""
const sameLine = (text: string, a: number, b: number) => !text.slice(Math.min(a, b), Math.max(a, b)).includes("\n")

/** A value as JSON, compact (`{ "a": 1 }`) or one entry a line at `indent`. */
export function jsonText(value: ConfigValue, indent: string, style: JsoncStyle, compact: boolean): string {
  const inner = indent + style.unit
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]"
    // Strings and numbers stay on one line (`["ScheduleStream"]`), as wrangler's own docs write them.
    if (compact || value.every((item) => !isObject(item) && !Array.isArray(item))) {
      return `[${value.map((item) => jsonText(item, inner, style, true)).join(", ")}]`
    }
    const items = value.map((item) => `${inner}${jsonText(item, inner, style, false)}`)
    return `[${style.eol}${items.join(`,${style.eol}`)}${style.eol}${indent}]`
  }
  if (isObject(value)) {
    const entries = Object.entries(value)
    if (entries.length === 0) return "{}"
    const entry = ([key, item]: [string, ConfigValue], at: string) =>
      `${JSON.stringify(key)}: ${jsonText(item, at, style, compact)}`
    if (compact) return `{ ${entries.map((item) => entry(item, inner)).join(", ")} }`
    const lines = entries.map((item) => `${inner}${entry(item, inner)}`)
    return `{${style.eol}${lines.join(`,${style.eol}`)}${style.eol}${indent}}`
  }
  return JSON.stringify(value)
}

/** After `from`: the comma that follows (trivia aside), and the end of that line's own trailing comment. */
function afterItem(text: string, from: number): { comma: number | undefined; lineEnd: number } {
  const scanner = createScanner(text, false)
  scanner.setPosition(from)
  let comma: number | undefined
  let lineEnd = from
  for (let kind = scanner.scan(); ; kind = scanner.scan()) {
    const end = scanner.getTokenOffset() + scanner.getTokenLength()
    if (kind === WHITESPACE) continue
    if (kind === COMMA && comma === undefined) {
      comma = scanner.getTokenOffset()
      lineEnd = end
      continue
    }
    // A comment that starts and ends on the item's line describes it: what is added goes after it.
    if ((kind === LINE_COMMENT || kind === BLOCK_COMMENT) && sameLine(text, from, end)) {
      lineEnd = end
      continue
    }
    return { comma, lineEnd }
  }
}

/** `entry` (a property or an element) as the last of the container `node`, in the container's own layout. */
function intoContainer(
  text: string,
  node: Node,
  entry: (indent: string, compact: boolean) => string,
  style: JsoncStyle,
) {
  const open = node.offset
  const close = node.offset + node.length - 1
  const children = node.children ?? []
  // At the top level, a new key goes before the environments (`env`), which a config keeps last.
  const envAt = node.parent === undefined ? children.findIndex((child) => child.children?.[0]?.value === "env") : -1
  const last = envAt > 0 ? children[envAt - 1] : children.at(-1)
  const following = envAt > 0
  if (last === undefined) {
    if (sameLine(text, open, close)) return [{ at: open + 1, text: entry("", true) }]
    const indent = indentAt(text, close) + style.unit
    return [{ at: open + 1, text: `${style.eol}${indent}${entry(indent, false)}` }]
  }
  const { comma, lineEnd } = afterItem(text, last.offset + last.length)
  const compact = sameLine(text, open, last.offset) || sameLine(text, last.offset + last.length, close)
  if (compact) {
    const at = comma === undefined ? last.offset + last.length : comma + 1
    return [{ at, text: comma === undefined ? `, ${entry("", true)}` : ` ${entry("", true)},` }]
  }
  if (following)
    return [
      { at: lineEnd, text: `${style.eol}${indentAt(text, last.offset)}${entry(indentAt(text, last.offset), false)},` },
    ]
  const indent = indentAt(text, last.offset)
  // An element after one written on a single line (`{ "binding": "OWN" }`) is written the same way.
  const single =
    node.type === "array" && last.type !== "string" && sameLine(text, last.offset, last.offset + last.length)
  const line = `${style.eol}${indent}${entry(indent, single)}`
  if (comma !== undefined) return [{ at: lineEnd, text: `${line},` }]
  return [
    { at: last.offset + last.length, text: "," },
    { at: lineEnd, text: line },
  ]
}

const childOf = (node: Node, key: string) =>
  node.children?.find((property) => property.children?.[0]?.value === key)?.children?.[1]

/** The insertions that make one edit: nothing is rewritten, so every comment stays beside what it describes. */
export function jsoncInsertions(text: string, edit: ConfigEdit, style: JsoncStyle): Insertion[] {
  const root = parseTree(text, [], { allowTrailingComma: true, disallowComments: false })
  if (root?.type !== "object") throw new UnsupportedJsonc("not an object")
  const path = edit.op === "set" ? [edit.key] : edit.path
  let node = root
  let depth = 0
  for (; depth < path.length; depth++) {
    const child = childOf(node, path[depth] as string)
    if (child === undefined) break
    node = child
  }
  if (depth === path.length) {
    if (edit.op === "set" || node.type !== "array") throw new UnsupportedJsonc(`${path.join(".")} is there`)
    return intoContainer(text, node, (indent, compact) => jsonText(edit.value, indent, style, compact), style)
  }
  if (node.type !== "object") throw new UnsupportedJsonc(`${path.slice(0, depth).join(".")} is not an object`)
  // What is missing, built from the inside out: {"bindings": [value]} under durable_objects.
  let value: ConfigValue = edit.op === "set" ? edit.value : [edit.value]
  for (let i = path.length - 1; i > depth; i--) value = { [path[i] as string]: value }
  const key = JSON.stringify(path[depth])
  return intoContainer(text, node, (indent, compact) => `${key}: ${jsonText(value, indent, style, compact)}`, style)
}
