/** A URL in free text: a scheme and `//`, then everything up to the next whitespace (a URL's own text, its href, has none). */
const URL_IN_TEXT = /[a-z][a-z\d+.-]*:\/\/\S+/gi
/** Punctuation that ends a sentence or a quote after a URL rather than belonging to it. */
const TRAILING = /[.,;:!?)\]}'"]*$/
/** A URL's parts: scheme and `//`, userinfo (up to the authority's last `@`), host and path, query, fragment. */
const PARTS = /^([^:]+:\/\/)([^/?#\\]*@)?([^?#]*)(\?[^#]*)?(#.*)?$/s

/** The mark a secret is replaced with. */
const HIDDEN = "***"

/** A query with each value hidden, its names kept; a part with no `=` may be a token itself, so it is hidden whole. */
const hiddenQuery = (query: string) =>
  `?${query
    .slice(1)
    .split("&")
    .map((part) => {
      const equals = part.indexOf("=")
      return part === "" ? "" : equals < 0 ? HIDDEN : `${part.slice(0, equals)}=${HIDDEN}`
    })
    .join("&")}`

/**
 * `text` with the secrets of every URL in it hidden: its userinfo (`user:password@`), the value
 * of each query parameter and its fragment become `***`; the scheme, host, port and path stay,
 * so a reason still says where a request went. A secret in a path is not recognised. Every
 * delivery reason, described error and log line goes through it (README, "Secrets in URLs").
 *
 * @example
 * ```ts
 * redactUrlSecrets("POST https://bot:hunter2@hooks.example.com/in?token=abc&v=2 answered 503")
 * // "POST https://***@hooks.example.com/in?token=***&v=*** answered 503"
 * ```
 */
export function redactUrlSecrets(text: string): string {
  if (!text.includes("://")) return text
  return text.replace(URL_IN_TEXT, (url) => {
    const tail = TRAILING.exec(url)?.[0] ?? ""
    const part = PARTS.exec(url.slice(0, url.length - tail.length))
    if (part === null) return url
    // 1 scheme and `//`, 2 userinfo, 3 host and path, 4 query, 5 fragment.
    const user = part[2] ? `${HIDDEN}@` : ""
    return `${part[1]}${user}${part[3]}${part[4] ? hiddenQuery(part[4]) : ""}${part[5] ? `#${HIDDEN}` : ""}${tail}`
  })
}
