// What only a person's browser needs: the dashboard's script and the OpenAPI document, generated modules beside this
// file (scripts/generate/). Each is imported on the request that asks for it, so a heartbeat, an alarm or an API call
// never loads it. The Worker uploads them as modules of their own (wrangler.toml: base_dir is this folder, whose
// *.generated.js files are additional modules), so the specifiers stay "./name" and this file stays beside them.

/** The dashboard's browser code, inlined in the page under its CSP nonce. */
export const loadDashboardScript = async (): Promise<string> => (await import("./dashboard-script.generated.js")).SCRIPT

/** The dashboard's stylesheet, generated beside its script (dashboard/style.ts is its source). */
export const loadDashboardStyle = async (): Promise<string> => (await import("./dashboard-script.generated.js")).STYLE

/** The admin's OpenAPI document without its server, as a Worker answers it. */
export const loadOpenApiDocument = async () => (await import("./openapi.generated.js")).DOCUMENT
