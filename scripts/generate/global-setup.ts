import { writeGenerated } from "./index.ts"

/** The test run's global setup: the Worker imports the generated modules, which git does not hold, so they are built first. */
export default async function setup(): Promise<void> {
  await writeGenerated()
}
