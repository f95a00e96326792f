/**
 * The headers of the page's own state-changing calls: the CSRF token travels in `X-CSRF-Token`
 * as well as in the body, so the server checks it before it reads the body
 * (server/src/http/csrf.rs).
 */
export function postHeaders(csrf: string): Record<string, string> {
  return { Accept: 'application/json', 'Content-Type': 'application/json', 'X-CSRF-Token': csrf };
}
