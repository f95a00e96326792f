/** Text from the copy catalogue the server sends, with {name} parameters filled in. */
export function text(copy: Record<string, string>, key: string, params: Record<string, string> = {}): string {
  let out = copy[key] ?? key;
  for (const [name, value] of Object.entries(params)) out = out.replaceAll(`{${name}}`, value);
  return out;
}
