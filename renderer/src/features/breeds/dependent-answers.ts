/**
 * Answers that follow other answers, from the UI hints (journey.md §4 Pet details): changing the
 * species clears the types and the breed (`clears`); a mongrel size is the breed (`setsBreed`);
 * a cat or rabbit type other than the searched one is the breed (`setsBreedExcept`).
 */
type Answers = Record<string, unknown>;
type Hints = Record<string, unknown>;

function options(hints: Hints | undefined, field: string): Record<string, unknown> {
  const h = hints?.[field] as Hints | undefined;
  return (h?.['ui:options'] as Record<string, unknown> | undefined) ?? {};
}

function followItem(hints: Hints | undefined, before: Answers, after: Answers): Answers {
  const next: Answers = { ...after };
  for (const field of Object.keys({ ...before, ...after })) {
    if (before[field] === after[field]) continue;
    const o = options(hints, field);
    if (Array.isArray(o.clears)) for (const f of o.clears as string[]) delete next[f];
    if (o.setsBreed === true) {
      if (after[field] === undefined) delete next.pet_breed;
      else next.pet_breed = after[field];
    }
    if (typeof o.setsBreedExcept === 'string') {
      if (after[field] === undefined || after[field] === o.setsBreedExcept) delete next.pet_breed;
      else next.pet_breed = after[field];
    }
  }
  return next;
}

/** Applies the hints to every changed item of every array answer, and to top-level answers. */
export function followAnswers(ui: Hints, before: Answers, after: Answers): Answers {
  const top = followItem(ui, before, after);
  for (const [key, value] of Object.entries(top)) {
    const itemHints = (ui[key] as Hints | undefined)?.items as Hints | undefined;
    if (!Array.isArray(value) || !itemHints) continue;
    const old = Array.isArray(before[key]) ? (before[key] as Answers[]) : [];
    top[key] = value.map((item, i) => (item && typeof item === 'object' ? followItem(itemHints, old[i] ?? {}, item as Answers) : item));
  }
  return top;
}
