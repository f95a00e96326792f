// The parity check (issue 8): for every answer set engine/tests/parity.rs generated, the
// browser's validation (the precompiled validators and the renderer's message mapping, with the
// same copy) gives exactly the field errors the server gives. Any disagreement fails the build.
import { beforeAll, describe, expect, it } from 'vitest';

import parity from '../../../../tests/parity/cases.json';
import enGB from '../../../../questions/copy/en-GB.json';
import type { QuestionsView } from '@/shared/types';
import { loadValidators, validatorIds } from '@/generated/validators';
import { validateAnswers } from './FormStep';

// The journey's API client loads each view's validators before showing it; here, all of them.
beforeAll(() => loadValidators(validatorIds));

type Case = { questions: string; case: string; answers: Record<string, unknown>; errors: Array<{ field: string; message: string }> };

const files = import.meta.glob('../../../../questions/*.json', { eager: true }) as Record<string, { default?: { id: string; schema: QuestionsView['schema']; ui: Record<string, unknown> } } & { id?: string }>;
const byId = new Map<string, { schema: QuestionsView['schema']; ui: Record<string, unknown> }>();
for (const module of Object.values(files)) {
  const set = (module.default ?? module) as unknown as { id: string; schema: QuestionsView['schema']; ui: Record<string, unknown> };
  if (set?.id && set.schema) byId.set(set.id, set);
}
const copy = enGB.messages as Record<string, string>;
const cases = (parity as { cases: Case[] }).cases;

describe('the browser validates as the server does (tests/parity/cases.json)', () => {
  it('has the cases the server generated', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
  });

  it('gives every case the server field errors, word for word', () => {
    const disagreements: string[] = [];
    for (const c of cases) {
      const set = byId.get(c.questions);
      if (!set) {
        disagreements.push(`${c.questions}: no question set`);
        continue;
      }
      const questions = { id: c.questions, schema: set.schema, ui: set.ui, answers: {}, submit: null } as unknown as QuestionsView;
      const browser = validateAnswers(questions, structuredClone(c.answers), copy)
        .map((e) => ({ field: e.field, message: e.message }))
        .sort((a, b) => a.field.localeCompare(b.field));
      const server = [...c.errors].sort((a, b) => a.field.localeCompare(b.field));
      if (JSON.stringify(browser) !== JSON.stringify(server)) {
        disagreements.push(`${c.questions} (${c.case}): browser ${JSON.stringify(browser)} ≠ server ${JSON.stringify(server)}`);
      }
    }
    expect(disagreements, disagreements.slice(0, 15).join('\n')).toEqual([]);
  });
});
