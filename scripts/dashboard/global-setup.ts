import { writeDashboard } from "./bundle.ts"

/** The test run's global setup: the page imports the dashboard's bundle, which git does not hold, so it is built first. */
export default async function setup(): Promise<void> {
  await writeDashboard()
}
