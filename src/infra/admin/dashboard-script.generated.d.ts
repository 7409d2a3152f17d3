/** The dashboard's page with its style and script inlined, NONCE_MARK (browser-only.ts) where the nonce goes (scripts/dashboard/bundle.ts writes dashboard-script.generated.js beside this file). */
export declare const PAGE: string
