import type { AST } from "toml-eslint-parser"
import { type ConfigEdit, type ConfigValue, isObject } from "./edits.ts"
import type { Insertion } from "./insertions.ts"

/** A layout the insertions do not handle (a value where a table should be): init leaves that edit to the user. */
export class UnsupportedLayout extends Error {
  override name = "UnsupportedLayout"
}

const BARE_KEY = /^[A-Za-z0-9_-]+$/
const keyText = (key: string) => (BARE_KEY.test(key) ? key : JSON.stringify(key))
const dotted = (path: readonly string[]) => path.map(keyText).join(".")

/** A value as TOML writes it inline; JSON's string escapes are TOML's basic-string escapes. */
export function inlineValue(value: ConfigValue): string {
  if (typeof value === "string") return JSON.stringify(value)
  if (typeof value === "boolean" || (typeof value === "number" && Number.isFinite(value))) return String(value)
  if (Array.isArray(value)) return `[${value.map(inlineValue).join(", ")}]`
  if (isObject(value)) {
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${keyText(key)} = ${inlineValue(item)}`)
      .join(", ")} }`
  }
  throw new UnsupportedLayout(`cannot write ${String(value)} inline`)
}

const names = (key: AST.TOMLKey) => key.keys.map((part) => (part.type === "TOMLBare" ? part.name : part.value))
const samePath = (a: readonly (string | number)[], b: readonly (string | number)[]) =>
  a.length === b.length && a.every((part, i) => part === b[i])
const startsWith = (path: readonly (string | number)[], prefix: readonly (string | number)[]) =>
  prefix.every((part, i) => path[i] === part)

interface Located {
  node: AST.TOMLKeyValue
  path: string[]
}

/** Every key/value whose path runs through tables only (no array element), inline tables included. */
function keyValues(ast: AST.TOMLProgram): Located[] {
  const found: Located[] = []
  const visit = (node: AST.TOMLKeyValue, base: readonly string[]) => {
    const path = [...base, ...names(node.key)]
    found.push({ node, path })
    if (node.value.type === "TOMLInlineTable") for (const child of node.value.body) visit(child, path)
  }
  for (const item of ast.body[0].body) {
    if (item.type === "TOMLKeyValue") visit(item, [])
    else if (item.kind === "standard" && item.resolvedKey.every((part) => typeof part === "string")) {
      for (const child of item.body) visit(child, item.resolvedKey as string[])
    }
  }
  return found
}

const tables = (ast: AST.TOMLProgram) =>
  ast.body[0].body.filter((item): item is AST.TOMLTable => item.type === "TOMLTable")

/** The end of the line `at` is on (before its line break): after a trailing comment, which stays with its line. */
function lineEnd(text: string, at: number): number {
  const newline = text.indexOf("\n", at)
  if (newline < 0) return text.length
  return text[newline - 1] === "\r" ? newline - 1 : newline
}

const lineStart = (text: string, at: number) => text.lastIndexOf("\n", at - 1) + 1
const indentAt = (text: string, at: number) => /^[ \t]*/.exec(text.slice(lineStart(text, at), at))?.[0] ?? ""
const sameLine = (text: string, a: number, b: number) => !text.slice(Math.min(a, b), Math.max(a, b)).includes("\n")

/** The comma token between two offsets, if any (comments are not tokens, so a comma inside one is not found). */
const commaBetween = (ast: AST.TOMLProgram, from: number, to: number) =>
  ast.tokens.find((token) => token.value === "," && token.range[0] >= from && token.range[1] <= to)

/** `value` as the last element of an inline array, on its own line where the array has one element per line. */
function intoArray(ast: AST.TOMLProgram, text: string, array: AST.TOMLArray, value: string, eol: string): Insertion[] {
  const [open, end] = array.range
  const close = end - 1
  const last = array.elements.at(-1)
  if (last === undefined) return [{ at: open + 1, text: value }]
  const comma = commaBetween(ast, last.range[1], close)
  const after = comma?.range[1] ?? last.range[1]
  if (sameLine(text, open, last.range[0]) || sameLine(text, after, close)) {
    return [comma ? { at: after, text: ` ${value},` } : { at: after, text: `, ${value}` }]
  }
  const line = `${eol}${indentAt(text, last.range[0])}${value}`
  if (comma) return [{ at: lineEnd(text, after), text: `${line},` }]
  return [
    { at: last.range[1], text: "," },
    { at: lineEnd(text, after), text: line },
  ]
}

/** `key = value` as the last entry of an inline table. */
function intoInlineTable(ast: AST.TOMLProgram, table: AST.TOMLInlineTable, entry: string): Insertion[] {
  const last = table.body.at(-1)
  if (last === undefined) return [{ at: table.range[0] + 1, text: ` ${entry} ` }]
  const comma = commaBetween(ast, last.range[1], table.range[1] - 1)
  return [comma ? { at: comma.range[1], text: ` ${entry},` } : { at: last.range[1], text: `, ${entry}` }]
}

/** A new block at the end of the file, a blank line after what is there. */
function atEnd(text: string, block: string, eol: string): Insertion {
  const breaks = (/(?:\r?\n)*$/.exec(text)?.[0].match(/\n/g) ?? []).length
  const lead = text.length === 0 || breaks >= 2 ? "" : breaks === 1 ? eol : eol + eol
  return { at: text.length, text: `${lead}${block}${eol}` }
}

const tableBlock = (path: readonly string[], value: ConfigValue, eol: string) => {
  if (!isObject(value)) throw new UnsupportedLayout(`[[${dotted(path)}]] takes tables`)
  const lines = Object.entries(value).map(([key, item]) => `${keyText(key)} = ${inlineValue(item)}`)
  return [`[[${dotted(path)}]]`, ...lines].join(eol)
}

/** After the last top-level key/value (before the first table), where a new top-level key belongs. */
function topLevelKey(ast: AST.TOMLProgram, text: string, entry: string, eol: string): Insertion {
  const last = ast.body[0].body.filter((item) => item.type === "TOMLKeyValue").at(-1)
  if (last === undefined) return { at: 0, text: `${entry}${eol}` }
  return { at: lineEnd(text, last.range[1]), text: `${eol}${entry}` }
}

/** An element appended to the array at `path`, which does not exist yet. */
function newArray(ast: AST.TOMLProgram, text: string, path: readonly string[], value: ConfigValue, eol: string) {
  const located = keyValues(ast)
  // The nearest ancestor written as an inline table (`durable_objects = { }`) takes the array inside it.
  for (let depth = path.length - 1; depth > 0; depth--) {
    const parent = located.find(({ path: at }) => samePath(at, path.slice(0, depth)))
    if (parent === undefined) continue
    if (parent.node.value.type !== "TOMLInlineTable") throw new UnsupportedLayout(`${dotted(path)}'s parent`)
    return intoInlineTable(ast, parent.node.value, `${dotted(path.slice(depth))} = [${inlineValue(value)}]`)
  }
  if (isObject(value)) return [atEnd(text, tableBlock(path, value, eol), eol)]
  const parentPath = path.slice(0, -1)
  const entry = `${keyText(path.at(-1) as string)} = [${inlineValue(value)}]`
  if (parentPath.length === 0) return [topLevelKey(ast, text, entry, eol)]
  const table = tables(ast).find((item) => item.kind === "standard" && samePath(item.resolvedKey, parentPath))
  if (table !== undefined) return [{ at: lineEnd(text, table.range[1]), text: `${eol}${entry}` }]
  // Written with dotted keys at the top (`triggers.x = …`): a dotted key beside them; else a table of its own.
  if (located.some(({ node, path: at }) => node.parent.type === "TOMLTopLevelTable" && startsWith(at, parentPath))) {
    return [topLevelKey(ast, text, `${dotted(path)} = [${inlineValue(value)}]`, eol)]
  }
  return [atEnd(text, [`[${dotted(parentPath)}]`, entry].join(eol), eol)]
}

/** Where and what to insert for one edit. Throws UnsupportedLayout where the layout is not one of these. */
export function insertionsFor(ast: AST.TOMLProgram, text: string, edit: ConfigEdit, eol: string): Insertion[] {
  if (edit.op === "set") return [topLevelKey(ast, text, `${keyText(edit.key)} = ${inlineValue(edit.value)}`, eol)]
  const { path, value } = edit
  const inline = keyValues(ast).find(({ path: at }) => samePath(at, path))
  if (inline !== undefined) {
    if (inline.node.value.type !== "TOMLArray") throw new UnsupportedLayout(`${dotted(path)} is not an array`)
    return intoArray(ast, text, inline.node.value, inlineValue(value), eol)
  }
  const elements = tables(ast).filter(
    (item) =>
      item.kind === "array" && item.resolvedKey.length === path.length + 1 && startsWith(item.resolvedKey, path),
  )
  const last = elements.at(-1)
  if (last === undefined) return newArray(ast, text, path, value, eol)
  // After the last element and the sub-tables that belong to it (`[[migrations.renamed_classes]]`).
  const own = last.resolvedKey
  const end = tables(ast)
    .filter((item) => startsWith(item.resolvedKey, own))
    .reduce((at, item) => Math.max(at, item.range[1]), last.range[1])
  return [{ at: lineEnd(text, end), text: `${eol}${eol}${tableBlock(path, value, eol)}` }]
}
