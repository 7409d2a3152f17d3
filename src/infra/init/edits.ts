// What `slotwise init` changes in a wrangler config, the same for wrangler.toml and wrangler.jsonc: each edit only
// adds, so whatever the Worker had (its comments, triggers, bindings, migrations) stays where it was.

/** A config value as wrangler reads it: what TOML and JSONC both parse to. */
export type ConfigValue = string | number | boolean | Date | null | ConfigValue[] | { [key: string]: ConfigValue }

export type ConfigEdit =
  /** A top-level key the config does not have yet (`minify`). */
  | { op: "set"; key: string; value: ConfigValue; what: string }
  /** One element at the end of the array at `path`, which is created (with its parents) when missing. */
  | { op: "append"; path: readonly string[]; value: ConfigValue; what: string }

export type ConfigObject = { [key: string]: ConfigValue }

/** An edit the config's value cannot take (an element appended to what is not an array). */
export class EditShapeError extends Error {
  override name = "EditShapeError"
}

export const isObject = (value: unknown): value is ConfigObject =>
  typeof value === "object" && value !== null && !Array.isArray(value) && !(value instanceof Date)

/** The config an edit should leave behind, as a value: what the edited text must parse to. */
export function applyToValue(config: ConfigObject, edit: ConfigEdit): ConfigObject {
  const copy = structuredClone(config)
  if (edit.op === "set") {
    copy[edit.key] = edit.value
    return copy
  }
  let node: ConfigObject = copy
  for (const key of edit.path.slice(0, -1)) {
    const next = node[key]
    if (next === undefined) node[key] = {}
    else if (!isObject(next)) throw new EditShapeError(`${edit.path.join(".")}: ${key} is not a table`)
    node = node[key] as ConfigObject
  }
  const last = edit.path.at(-1) as string
  const list = node[last]
  if (list === undefined) node[last] = [edit.value]
  else if (Array.isArray(list)) list.push(edit.value)
  else throw new EditShapeError(`${edit.path.join(".")} is not an array`)
  return copy
}
