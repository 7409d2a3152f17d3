import type { Answers } from "../../answers.ts"
import { ADMIN_ROUTES, adminPath, type ParamsOf, type RouteName } from "../../routes.ts"

const TOKEN_KEY = "slotwise.admin.token"
/** Where admin is mounted: the page is its root. */
const BASE = location.pathname.replace(/\/+$/, "")

/** The token is kept in this tab's sessionStorage only, sent as a bearer header, never a cookie. */
export const token = {
  get: () => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string) => sessionStorage.setItem(TOKEN_KEY, value),
  forget: () => sessionStorage.removeItem(TOKEN_KEY),
}

/** The token is missing or was refused: the token form asks for it, showing why. */
export class NeedToken extends Error {}

interface ProblemBody {
  type?: string
  title?: string
  detail?: string
  field?: string
}

/** An admin route's problem+json refusal. */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly body: ProblemBody,
  ) {
    super(`${status} ${body.title ?? "Error"}${body.detail ? `: ${body.detail}` : ""}`)
  }
}

export interface CallOptions {
  query?: Readonly<Record<string, string | number | undefined | null>>
  body?: unknown
}

/** Calls an admin route by its name in the route table, with the bearer token; answers its typed JSON. */
export async function api<R extends RouteName>(
  route: R,
  params: ParamsOf<R>,
  options: CallOptions = {},
): Promise<Answers[R]> {
  const bearer = token.get()
  if (!bearer) throw new NeedToken("")
  const headers: Record<string, string> = { authorization: `Bearer ${bearer}` }
  if (options.body !== undefined) headers["content-type"] = "application/json"
  const res = await fetch(BASE + adminPath(route, params, options.query), {
    method: ADMIN_ROUTES[route].method,
    headers,
    body: options.body === undefined ? null : JSON.stringify(options.body),
    cache: "no-store",
    credentials: "omit",
  })
  if (res.status === 401) {
    token.forget()
    throw new NeedToken("The token was refused (401 Unauthorized): enter it again.")
  }
  const text = await res.text()
  let data: unknown
  try {
    data = text ? JSON.parse(text) : {}
  } catch {
    data = { title: res.statusText, detail: text.slice(0, 300) }
  }
  const problem = data as ProblemBody
  // A configured token no bearer header can carry: the token form shows why (the server's rule).
  if (res.status === 503 && String(problem.type).endsWith("/admin-token-unusable")) {
    token.forget()
    throw new NeedToken(problem.detail ?? "")
  }
  if (!res.ok) throw new ProblemError(res.status, problem)
  return data as Answers[R]
}
