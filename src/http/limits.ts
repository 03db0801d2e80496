/** Most query parameters one request may carry. */
export const MAX_QUERY_PARAMETERS = 32;
/** Deepest nesting of arrays and objects in a JSON body. */
export const MAX_JSON_DEPTH = 32;
/** Largest request line plus headers, in bytes (Node answers 431 beyond; see server.ts). */
export const MAX_HEADER_BYTES = 16 * 1024;
