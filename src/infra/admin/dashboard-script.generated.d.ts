/** The dashboard's browser code (scripts/dashboard/bundle.ts writes dashboard-script.generated.js beside this file). */
export declare const SCRIPT: string
/** The dashboard's stylesheet, from dashboard/style.ts. */
export declare const STYLE: string
