import { api } from "./api.ts"
import { button, byId, el } from "./dom.ts"
import { fail } from "./session.ts"
import { loadStreamStatuses } from "./stream-status.ts"

export const PAGE_SIZE = 50

/** The directory a page at a time: cursors[i] fetches page i. */
const paging = { cursors: [null] as Array<string | null>, page: 0, current: null as string | null, gen: 0 }
let open: (name: string) => void = () => {}

export async function loadStreams(): Promise<void> {
  try {
    const cursor = paging.cursors[paging.page]
    const data = await api("streams", {}, { query: { limit: PAGE_SIZE, cursor } })
    paging.cursors.length = paging.page + 1
    if (data.cursor) paging.cursors.push(data.cursor)
    byId("streams-list").replaceChildren(
      ...data.streams.map((stream) => {
        const link = button(stream.name, () => open(stream.name), {
          class: "stream-link",
          "data-testid": "stream-link",
          "data-stream": stream.name,
          "aria-current": String(stream.name === paging.current),
          title: `${stream.name} · listed ${new Date(stream.listedAt).toISOString()}`,
        })
        const status = el(
          "div",
          { class: "stream-status", "data-testid": "stream-status" },
          el("span", { class: "sub" }, "…"),
        )
        return el("li", { "data-stream": stream.name }, link, status)
      }),
    )
    if (data.streams.length === 0) byId("streams-list").append(el("li", { class: "none" }, "No streams yet."))
    byId<HTMLButtonElement>("streams-prev").disabled = paging.page === 0
    byId<HTMLButtonElement>("streams-next").disabled = !data.cursor
    byId("streams-page").textContent = `page ${paging.page + 1}`
    const gen = ++paging.gen
    await loadStreamStatuses(
      data.streams.map((stream) => stream.name),
      (name) => byId("streams-list").querySelector(`li[data-stream="${CSS.escape(name)}"] .stream-status`),
      () => gen === paging.gen,
    )
  } catch (error) {
    fail(error)
  }
}

/** Marks the open stream in the list. */
export function markCurrent(name: string | null): void {
  paging.current = name
  for (const link of byId("streams-list").querySelectorAll<HTMLElement>(".stream-link")) {
    link.setAttribute("aria-current", String(link.dataset.stream === name))
  }
}

export function clearStreams(): void {
  Object.assign(paging, { cursors: [null], page: 0, current: null })
  byId("streams-list").replaceChildren()
  byId<HTMLInputElement>("stream-input").value = ""
}

/** Wires the pager and the box that opens a stream by name; `openStream` shows one. */
export function initStreams(openStream: (name: string) => void): void {
  open = openStream
  byId("streams-prev").addEventListener("click", () => {
    paging.page = Math.max(0, paging.page - 1)
    void loadStreams()
  })
  byId("streams-next").addEventListener("click", () => {
    paging.page += 1
    void loadStreams()
  })
  byId("stream-open").addEventListener("submit", (event) => {
    event.preventDefault()
    const name = byId<HTMLInputElement>("stream-input").value.trim()
    if (name) open(name)
  })
  byId("streams-refresh").addEventListener("click", () => void loadStreams())
}
