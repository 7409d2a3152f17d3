/**
 * `npm run build:container`: bundles the container profile (src/main.ts) into dist-container/main.js,
 * after scripts/generate has written the generated modules it imports.
 */
import { bundleContainer } from "./bundle.ts"

await bundleContainer()
