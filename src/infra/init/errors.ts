import type { ConfigEdit } from "./edits.ts"

/** Why `slotwise init` stops before writing anything: the message names the file and what to do. */
export class InitRefusal extends Error {
  override name = "InitRefusal"
}

/** The wrangler config does not parse. */
export class ConfigSyntaxError extends InitRefusal {
  override name = "ConfigSyntaxError"
}

/** A binding, class or var slotwise needs under a fixed name is already something else. */
export class BindingConflictError extends InitRefusal {
  override name = "BindingConflictError"
}

/** An edit whose result would not parse to the config with exactly that addition: init leaves it to the user. */
export class UnsafeEditError extends InitRefusal {
  override name = "UnsafeEditError"
  constructor(file: string, edit: ConfigEdit) {
    super(`${file}: init cannot add ${edit.what} safely to this layout; add it by hand (README, "By hand")`)
  }
}
