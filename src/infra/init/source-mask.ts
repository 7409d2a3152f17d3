import type * as TypeScript from "typescript"
import { loadTypeScript, NO_TYPESCRIPT } from "./typescript.ts"

/** Thrown where init has no TypeScript to read an entry with: the entry is then left to the user, saying why. */
export class NoTypeScriptError extends Error {
  override name = "NoTypeScriptError"
  constructor() {
    super(NO_TYPESCRIPT)
  }
}

let typescript: typeof TypeScript | undefined
let last: { source: string; file: string; code: string } | undefined

/** The kinds whose text is not code: a pattern must never find a name or an `export default` in them. */
const literalKinds = (ts: typeof TypeScript) =>
  new Set<TypeScript.SyntaxKind>([
    ts.SyntaxKind.StringLiteral,
    ts.SyntaxKind.NoSubstitutionTemplateLiteral,
    ts.SyntaxKind.TemplateHead,
    ts.SyntaxKind.TemplateMiddle,
    ts.SyntaxKind.TemplateTail,
    ts.SyntaxKind.RegularExpressionLiteral,
    ts.SyntaxKind.JsxText,
  ])

/**
 * The source with every comment, and every string, template text, regex literal and JSX text, blanked to spaces
 * (line ends kept), the same length: patterns find code only, and an offset found in it is the same offset in the
 * source. Read by TypeScript's parser, never by hand: only a parser knows that `/"/g` is a regex and
 * `<p>It's</p>` JSX text. `file` names the entry (`.tsx`, `.jsx` read JSX).
 */
export function maskSource(source: string, file = "entry.ts"): string {
  if (last?.source === source && last.file === file) return last.code
  typescript ??= loadTypeScript()
  if (typescript === undefined) throw new NoTypeScriptError()
  const code = masked(typescript, source, file)
  last = { source, file, code }
  return code
}

function masked(ts: typeof TypeScript, source: string, file: string): string {
  const jsx = /\.[jt]sx$/.test(file)
  const kind = jsx ? ts.ScriptKind.TSX : /\.[cm]?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, kind)
  const literal = literalKinds(ts)
  const out = source.split("")
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== "\n" && out[i] !== "\r") out[i] = " "
  }
  const visit = (node: TypeScript.Node) => {
    const children = node.getChildren(tree)
    if (children.length === 0 || node.kind === ts.SyntaxKind.JsxText) {
      // A token: its comments are in the trivia before it; the whitespace there stays (indentation is read from it).
      const start = node.getStart(tree)
      for (const comment of ts.getLeadingCommentRanges(source, node.pos) ?? []) blank(comment.pos, comment.end)
      // A string keeps its quotes (an import's specifier is found by them); the rest is blanked whole.
      const quoted = node.kind === ts.SyntaxKind.StringLiteral ? 1 : 0
      if (literal.has(node.kind)) blank(start + quoted, node.end - quoted)
      return
    }
    for (const child of children) visit(child)
  }
  visit(tree)
  return out.join("")
}
