/** The browser tests' server's admin token: the internal pages' password there, and nowhere else. */
export const adminToken = 'e2e-admin-token-only-for-local-browser-tests';

/** The browser tests' server's metrics token: what a Prometheus scraper would send for /metrics. */
export const metricsToken = 'e2e-metrics-token-only-for-local-browser-tests';
