const BOM = "\uFEFF"

/** A text without its UTF-8 byte order mark (which wrangler reads past), and a function that puts it back. */
export function withoutBom(text: string): { text: string; restore: (edited: string) => string } {
  if (!text.startsWith(BOM)) return { text, restore: (edited) => edited }
  return { text: text.slice(BOM.length), restore: (edited) => `${BOM}${edited}` }
}

/** The line ending a text uses: CRLF when it has one, else LF; what init adds uses the same. */
export const lineEndingOf = (text: string) => (text.includes("\r\n") ? "\r\n" : "\n")
