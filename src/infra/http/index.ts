export { invalid, type Problem, problem } from "./problem.ts"
export { validate } from "./validate.ts"
