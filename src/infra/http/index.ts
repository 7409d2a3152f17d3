// What an application's own routes share with slotwise's admin: the same problem+json answers and validation.
// invalid, Issue and hasStreams are the engine's own: import them by path.
export { type Problem, problem } from "./problem.ts"
export { streamsRequired } from "./streams-required.ts"
export { validate } from "./validate.ts"
