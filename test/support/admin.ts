import { env } from "cloudflare:test"
import { app } from "./worker.ts"

export const ADMIN_TOKEN = "test-admin-token"

/** A request to the Worker's app, with the admin bearer token unless `token` says otherwise. */
export function adminFetch(
  path: string,
  init: RequestInit & { token?: string | null; env?: Partial<Env> } = {},
): Promise<Response> {
  const { token = ADMIN_TOKEN, env: overrides = {}, ...rest } = init
  const headers = new Headers(rest.headers)
  if (token !== null) headers.set("authorization", `Bearer ${token}`)
  if (rest.body !== undefined && !headers.has("content-type")) headers.set("content-type", "application/json")
  return Promise.resolve(app.request(path, { ...rest, headers }, { ...env, ...overrides }))
}

/** The JSON body of a response, typed loosely for assertions. */
// biome-ignore lint/suspicious/noExplicitAny: assertions read arbitrary response JSON
export const json = async (res: Response) => (await res.json()) as Record<string, any>
