/**
 * The slotwise release this code is, as package.json says (a test keeps the two equal). It moves with each
 * release (CHANGELOG.md); a stream names it when a caller of another release meets it (version skew).
 *
 * @example
 * ```ts
 * import { SLOTWISE_VERSION } from "slotwise"
 * console.log(`running slotwise ${SLOTWISE_VERSION}`) // "running slotwise 0.2.0"
 * ```
 */
export const SLOTWISE_VERSION = "0.2.0"
