export { monthlyStatement } from "./consumers.ts"
export { statementRoutes } from "./routes.ts"
