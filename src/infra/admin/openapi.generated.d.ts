/** The admin's OpenAPI document (scripts/openapi/document.ts writes openapi.generated.js beside this file). */
export declare const DOCUMENT: {
  openapi: string
  info: { title: string; version: string; [field: string]: unknown }
  paths: Record<string, unknown>
  [field: string]: unknown
}
