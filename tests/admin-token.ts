/** The browser tests' server's admin token: the internal pages' password there, and nowhere else. */
export const adminToken = 'e2e-admin-token-only-for-local-browser-tests';
