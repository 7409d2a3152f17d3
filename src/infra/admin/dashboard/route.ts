import type { Context } from "hono"
import { loadDashboardPage, NONCE_MARK } from "../browser-only.ts"

const ENTITIES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }

/** The page with `nonce` (escaped: it is an attribute's value) where it goes. */
export const dashboardPage = async (nonce: string) =>
  (await loadDashboardPage()).replaceAll(
    NONCE_MARK,
    nonce.replace(/[&<>"']/g, (c) => ENTITIES[c] as string),
  )

/** A fresh nonce per response: only the page's own inline script and style may run. */
const policy = (nonce: string) =>
  [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join("; ")

/**
 * `GET /admin`: the dashboard's static HTML shell. It carries no data and no token and sets no
 * cookie; its script asks for the token and calls the admin API with it.
 */
export async function dashboard(c: Context): Promise<Response> {
  const nonce = btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(16))))
  c.header("content-security-policy", policy(nonce))
  c.header("cache-control", "no-store")
  c.header("referrer-policy", "no-referrer")
  c.header("x-content-type-options", "nosniff")
  c.header("x-frame-options", "DENY")
  return c.html(await dashboardPage(nonce))
}
