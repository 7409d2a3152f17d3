/** Text added at an offset of the original text: how init edits a config, so nothing there is rewritten. */
export interface Insertion {
  at: number
  text: string
}

/** The text with the insertions made, each at its offset in the original; two at one offset keep their order. */
export const applyInsertions = (text: string, insertions: readonly Insertion[]): string =>
  insertions
    .map((insertion, order) => ({ ...insertion, order }))
    .sort((a, b) => b.at - a.at || b.order - a.order)
    .reduce((current, { at, text: added }) => current.slice(0, at) + added + current.slice(at), text)
