declare namespace Cloudflare {
  interface Env {
    /** A seed to run instead of the fixed ones (vitest.config.ts passes process.env.SIM_SEED). */
    SIM_SEED?: string
    /** How many steps that seed runs. */
    SIM_STEPS?: string
  }
}
