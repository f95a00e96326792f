/**
 * Experiment views (journey.md §6: "Experiment views are added to payloads"; §7: the call helper
 * adds an experiment-views field): the variations this page has shown, as "experiment:variation",
 * sent with every call so the server keeps them with the transition record.
 */
const shown = new Set<string>();

export function markViewed(experiment: string, variation: string): void {
  shown.add(`${experiment}:${variation}`);
}

export function experimentViews(): string[] {
  return [...shown];
}

/** For tests. */
export function forgetViews(): void {
  shown.clear();
}
