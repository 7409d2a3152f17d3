/**
 * The `Container` namespace (the package exports it as `Container`), the container profile's entry:
 * `Container.start` opens the database, applies the migrations, serves the app and fires the jobs
 * every minute until SIGTERM.
 *
 * @example
 * ```ts
 * import { Container } from "slotwise/node"
 * await Container.start({ app: createApp({ jobs, consumers }), jobs })
 * ```
 */
export { startContainer as start } from "./container.ts"
