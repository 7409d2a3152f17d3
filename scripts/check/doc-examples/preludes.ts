/**
 * The imports and declarations a block of the docs needs that its page shows elsewhere, by the block's key (its
 * page and its first line): scripts/check/doc-examples.ts compiles the block after its prelude. A key no block has
 * any more fails the check.
 */
export const PRELUDES: Record<string, string> = {}
