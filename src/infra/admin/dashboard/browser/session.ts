import { NeedToken, token } from "./api.ts"
import { byId } from "./dom.ts"
import { say } from "./status.ts"

/** The token form: the app hides until a token is given. */
export function askToken(message: string): void {
  for (const id of ["app", "forget-token", "auto-refresh-label"]) byId(id).hidden = true
  byId("token-form").hidden = false
  byId("token-message").textContent = message
  byId<HTMLInputElement>("token-input").focus()
}

/** What every view does with an error: a refused or missing token asks again, anything else lands in the status line. */
export function fail(error: unknown): void {
  if (error instanceof NeedToken) askToken(error.message)
  else say(error instanceof Error ? error.message : String(error), "error")
}

/**
 * Every action is confirmed first (a dismissed confirmation changes nothing; null: the caller asked already,
 * as a cancel's prompt for its reason does); its outcome lands in the status line, then `after` refreshes
 * what it changed.
 */
export async function act<T>(
  question: string | null,
  request: () => Promise<T>,
  describe: (answer: T) => string,
  after: () => Promise<unknown>,
): Promise<void> {
  // null: the question was already asked (a prompt for a reason, say).
  if (question !== null && !window.confirm(question)) return
  say("Working…", "busy")
  try {
    say(describe(await request()), "ok")
  } catch (error) {
    fail(error)
    if (error instanceof NeedToken) return
  }
  await after()
}

/** Wires the token form and the forget button: `begin` shows the app, `clear` drops what was fetched with the token. */
export function startSession(begin: () => void, clear: () => void): void {
  const open = () => {
    byId("token-form").hidden = true
    for (const id of ["app", "forget-token", "auto-refresh-label"]) byId(id).hidden = false
    say("", "info")
    begin()
  }
  byId("token-form").addEventListener("submit", (event) => {
    event.preventDefault()
    const input = byId<HTMLInputElement>("token-input")
    const value = input.value.trim()
    if (!value) return
    token.set(value)
    input.value = ""
    open()
  })
  byId("forget-token").addEventListener("click", () => {
    token.forget()
    // Nothing fetched with the token stays on the page.
    clear()
    say("", "info")
    askToken("Token forgotten.")
  })
  if (token.get()) open()
  else askToken("")
}
