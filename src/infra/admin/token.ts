/**
 * RFC 6750's b64token: the only bearer tokens admin access accepts (hono's bearerAuth), so an
 * ADMIN_TOKEN outside it could never log in. A module of its own, so `npm start` checks it too.
 */
export const ADMIN_TOKEN_SYNTAX = /^[A-Za-z0-9._~+/-]+=*$/
export const ADMIN_TOKEN_RULE =
  "must be an RFC 6750 b64token: letters, digits and . _ ~ + / - then optional = padding (base64url fits)"
