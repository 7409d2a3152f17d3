/** Building DOM from data: strings become text nodes and attribute values are set, never parsed as HTML. */

export type Child = Node | string | null | undefined | false | readonly Child[]
export type Attributes = Readonly<Record<string, string | boolean | null | undefined>>

/** An element of the page's static shell, by id; a missing one is a bug in the shell, so it throws. */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const found = document.getElementById(id)
  if (!found) throw new Error(`the dashboard has no #${id}`)
  return found as T
}

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  for (const [name, value] of Object.entries(attributes)) {
    if (value !== undefined && value !== null && value !== false) node.setAttribute(name, value === true ? "" : value)
  }
  append(node, children)
  return node
}

/** Replaces an element's children; null, undefined and false children are left out. */
export function fill(node: Node & ParentNode, ...children: Child[]): void {
  node.replaceChildren()
  append(node, children)
}

function append(node: Node & ParentNode, children: readonly Child[]): void {
  for (const child of children) {
    if (Array.isArray(child)) append(node, child)
    else if (child !== null && child !== undefined && child !== false) node.append(child as Node | string)
  }
}

export function button(label: string, onClick: () => void, attributes: Attributes = {}): HTMLButtonElement {
  const node = el("button", { type: "button", ...attributes }, label)
  node.addEventListener("click", onClick)
  return node
}

/** A coloured label; its kind (a CSS class) defaults to its text: "scheduled", "failed", "held"... */
export const badge = (text: string, attributes: Attributes = {}, kind = text) =>
  el("span", { ...attributes, class: `badge ${kind}` }, text)

export const emptyRow = (columns: number, text: string) =>
  el("tr", {}, el("td", { colspan: String(columns), class: "none" }, text))
