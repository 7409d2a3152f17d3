/**
 * The source with every comment and the inside of every string and template literal blanked to spaces, the same
 * length: patterns find code only, and an offset found in it is the same offset in the source.
 */
export function maskSource(source: string): string {
  const out = source.split("")
  const blank = (from: number, to: number) => {
    for (let i = from; i < to; i++) if (out[i] !== "\n" && out[i] !== "\r") out[i] = " "
  }
  let i = 0
  while (i < source.length) {
    const two = source.slice(i, i + 2)
    if (two === "//") {
      const end = source.indexOf("\n", i)
      const to = end < 0 ? source.length : end
      blank(i, to)
      i = to
    } else if (two === "/*") {
      const end = source.indexOf("*/", i + 2)
      const to = end < 0 ? source.length : end + 2
      blank(i, to)
      i = to
    } else if (source[i] === '"' || source[i] === "'" || source[i] === "`") {
      const quote = source[i]
      let j = i + 1
      while (j < source.length && source[j] !== quote) j += source[j] === "\\" ? 2 : 1
      blank(i + 1, j)
      i = j + 1
    } else i++
  }
  return out.join("")
}
