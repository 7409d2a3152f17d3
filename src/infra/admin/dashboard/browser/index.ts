import { DOM } from "./dom.ts"
import { SESSION } from "./session.ts"
import { VIEWS } from "./views.ts"

/**
 * The dashboard's browser code, inlined in the page. Data reaches the DOM only as text nodes and
 * attribute values, never as HTML. The parts share one script scope, in this order.
 */
export const SCRIPT = [
  '"use strict"',
  DOM,
  SESSION,
  VIEWS,
  `
if (sessionStorage.getItem(TOKEN_KEY)) start()
else askToken("")`,
].join("\n")
