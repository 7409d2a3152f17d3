/** Where the next quote, comment or placeholder may start: everything between is copied as it is. */
const TOKEN = /['"`[?]|--|\/\*/g
/** A quoted string or name in SQLite, by its opening character: its closing one (doubled inside, except `]`). */
const CLOSING: Readonly<Record<string, string>> = { "'": "'", '"': '"', "`": "`", "[": "]" }
/** A character PostgreSQL reads as part of a name or a parameter (`limit$1`, `$1as` are one token to it). */
const NAME_CHAR = /[\w$\u0080-\uffff]/
const DIGITS = /\d*/y

/**
 * D1's SQL with its `?` and `?NNN` placeholders numbered as PostgreSQL wants them ($1, $2, …), by
 * SQLite's own rules, so that each value binds where it binds on D1: `?NNN` is value NNN, a bare `?`
 * is one more than the largest number so far (`SELECT ?2, ?` binds the third value), and a `?` in a
 * string literal, a quoted name (`"…"`, `` `…` ``, `[…]`) or a comment is text. Each comment becomes
 * one space: PostgreSQL nests block comments and ends a `--` comment at a carriage return, SQLite
 * does neither, so a comment kept could hide a placeholder from one and not the other. A `$n` next
 * to a name is spaced from it, since PostgreSQL reads `limit$1` as one name.
 *
 * @example
 * ```ts
 * numberPlaceholders("SELECT ?2, ? -- ?\nFROM t WHERE a = '?'") // "SELECT $2, $3  \nFROM t WHERE a = '?'"
 * ```
 */
export function numberPlaceholders(sql: string): string {
  let out = ""
  let largest = 0
  let at = 0
  for (;;) {
    TOKEN.lastIndex = at
    const token = TOKEN.exec(sql)
    if (token === null) return out + sql.slice(at)
    out += sql.slice(at, token.index)
    const start = token.index
    const closing = CLOSING[token[0]]
    if (closing !== undefined) {
      at = quoteEnd(sql, start, closing)
      out += sql.slice(start, at)
    } else if (token[0] === "?") {
      DIGITS.lastIndex = start + 1
      const digits = DIGITS.exec(sql)?.[0] ?? ""
      const number = digits === "" ? largest + 1 : Number(digits)
      largest = Math.max(largest, number)
      at = start + 1 + digits.length
      const before = NAME_CHAR.test(out[out.length - 1] ?? "") ? " " : ""
      const after = NAME_CHAR.test(sql[at] ?? "") ? " " : ""
      out += `${before}$${number}${after}`
    } else {
      // A `--` comment runs to the newline (which stays), a `/*` one past its `*/`, or to the end when unclosed.
      const end = token[0] === "--" ? sql.indexOf("\n", start) : sql.indexOf("*/", start + 2)
      at = end < 0 ? sql.length : token[0] === "--" ? end : end + 2
      out += " "
    }
  }
}

/** Past the end of the string or name opened at `start`: a doubled closing quote inside is an escaped one. */
function quoteEnd(sql: string, start: number, closing: string): number {
  let from = start + 1
  for (;;) {
    const end = sql.indexOf(closing, from)
    if (end < 0) return sql.length
    if (closing === "]" || sql[end + 1] !== closing) return end + 1
    from = end + 2
  }
}
