export { type Database, database } from "./client.ts"
export * from "./schema.ts"
