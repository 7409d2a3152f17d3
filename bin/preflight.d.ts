// Types of preflight.js, for the TypeScript that imports it (its tests).

export declare const NODE_RANGE: string
export declare const WRANGLER_RANGE: string
export declare const INSTALL_WRANGLER: string
export declare function nodeProblem(version?: string): string | undefined
export declare function installedWrangler(cwd: string): { version: string; dir: string } | undefined
export declare function wranglerProblem(cwd: string): string | undefined
export declare function refuse(command: string, problem: string | undefined): void
