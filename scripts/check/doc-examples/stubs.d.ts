// Packages the docs' blocks import that this repository does not install: their part the blocks use. None at the
// moment: @opentelemetry/exporter-prometheus, which docs/admin.md's block imports, is a devDependency that
// test/node/prometheus.test.ts runs, so the block compiles against its own declarations.
export {}
