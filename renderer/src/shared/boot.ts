/**
 * What pawpath writes into the page before any call: the language and its copy, so that even a
 * failed first load speaks from the catalogue. Absent (for example under Vite's dev server), the
 * page falls back to the copy keys themselves.
 */
import type { ShellView } from './types';

export interface Boot {
  language: string;
  copy: Record<string, string>;
  /** The address of that catalogue: the API client takes it from here rather than fetching it. */
  copy_url?: string;
  /** The breed lists' address for the definitions being served (cached by the browser for a year). */
  breeds_url?: string;
  /** Where this page's view data is (preloaded by the HTML beside the script). */
  view_url?: string;
  /** The brand's frame (logo, phone, page links) before the first call. */
  shell: ShellView | null;
}

export function readBoot(doc: Document = document): Boot {
  const text = doc.getElementById('pawpath-boot')?.textContent ?? '';
  try {
    const parsed = JSON.parse(text) as Partial<Boot>;
    return { language: parsed.language ?? 'en-GB', copy: parsed.copy ?? {}, copy_url: parsed.copy_url, breeds_url: parsed.breeds_url, view_url: parsed.view_url, shell: parsed.shell ?? null };
  } catch {
    return { language: 'en-GB', copy: {}, shell: null };
  }
}
