/** Text from the copy catalogue the server sends, with {name} parameters filled in. */
export function text(copy: Record<string, string>, key: string, params: Record<string, string> = {}): string {
  let out = copy[key] ?? key;
  for (const [name, value] of Object.entries(params)) out = out.replaceAll(`{${name}}`, value);
  return out;
}

/** A cover type's name in the page's language ("Lifetime", "À vie") from its group code (LT, MB…). */
export function coverTypeName(copy: Record<string, string>, gid: string): string {
  return text(copy, `cover.type.${gid.toLowerCase()}`);
}

/** The owner's name with their title as the page's language words it ("Mrs Ada Smith", "Mme Ada Smith"). */
export function ownerName(copy: Record<string, string>, owner: Record<string, unknown>): string {
  const title = typeof owner.customer_title === 'string' && owner.customer_title ? text(copy, `owner.title.${owner.customer_title.toLowerCase()}`) : '';
  return [title, owner.customer_first_name, owner.customer_last_name].filter(Boolean).map(String).join(' ');
}
