/** The dashboard's browser code (scripts/dashboard/bundle.ts writes dashboard-script.generated.js beside this file). */
export declare const SCRIPT: string
