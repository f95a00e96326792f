// journey.md §4 Assumptions and health questions: "Saving the edit modal sets confirm_assumptions
// true" — on the edited pet, as the journey file says (its assumptions modal's `sets_on_pet`).
import { describe, expect, it } from 'vitest';

import direct from '../../../../journeys/direct.json';
import { withSetsOnPet } from './sets-on-pet';

type Edit = { questions: string; sets_on_pet?: Record<string, unknown> };
const assumptionsEdit = direct.steps.flatMap((s) => (s.edits ?? []) as Edit[]).find((e) => e.questions === 'assumptions');

describe('what a modal sets on the pet it edits', () => {
  it('is declared by the journey, not the page', () => {
    expect(assumptionsEdit?.sets_on_pet).toEqual({ confirm_assumptions: true });
  });

  it('is set on the edited pet only', () => {
    const answers = { pets: [{ pet_name: 'Rex', confirm_assumptions: false }, { pet_name: 'Tom', confirm_assumptions: false }] };
    const saved = withSetsOnPet({ sets_on_pet: assumptionsEdit?.sets_on_pet }, answers, 1);
    expect(saved.pets).toEqual([
      { pet_name: 'Rex', confirm_assumptions: false },
      { pet_name: 'Tom', confirm_assumptions: true },
    ]);
  });

  it('leaves the answers alone for a modal that sets nothing, or edits no one pet', () => {
    const answers = { pets: [{ pet_name: 'Rex' }] };
    expect(withSetsOnPet({}, answers, 0)).toBe(answers);
    expect(withSetsOnPet({ sets_on_pet: { confirm_assumptions: true } }, answers, undefined)).toBe(answers);
  });
});
