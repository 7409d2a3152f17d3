export { alerts } from "./alerts.ts"
export { alertWebhook } from "./consumers.ts"
