/** The dev runner's own lines, told apart from wrangler's output by their prefix. */
export const say = (message: string): void => console.log(`[dev] ${message}`)
export const warn = (message: string): void => console.error(`[dev] ${message}`)

export const describe = (error: unknown): string => {
  if (!(error instanceof Error)) return String(error)
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : ""
  return `${error.message}${cause}`
}
