// What only a person's browser needs: the dashboard's script and the OpenAPI document, generated modules beside this
// file (scripts/generate/). Each is imported on the request that asks for it, so a heartbeat, an alarm or an API call
// never loads it. The Worker uploads them as modules of their own (wrangler.toml: base_dir is this folder, whose
// *.generated.js files are additional modules), so the specifiers stay "./name" and this file stays beside them.

/** Where the page rendered at build time takes each request's nonce. */
export const NONCE_MARK = "__slotwise_nonce__"

/** The dashboard's page (dashboard/page.ts, its style and script inlined), NONCE_MARK where its nonce goes. */
export const loadDashboardPage = async (): Promise<string> => (await import("./dashboard-script.generated.js")).PAGE

/** The admin's OpenAPI document without its server, as a Worker answers it. */
export const loadOpenApiDocument = async () => (await import("./openapi.generated.js")).DOCUMENT
