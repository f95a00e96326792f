// The parity check: for every answer set engine/tests/parity.rs generated, the
// browser's validation (json-schema.ts interpreting the schema the server serves, and the
// renderer's message mapping, with the same copy) gives exactly the field errors the server
// gives. Any disagreement fails the build.
import { describe, expect, it } from 'vitest';

import parity from '../../../../tests/parity/cases.json';
import enGB from '../../../../questions/copy/en-GB.json';
import type { QuestionsView } from '@/shared/types';
import { validateAnswers } from './FormStep';

type Case = { questions: string; case: string; answers: Record<string, unknown>; errors: Array<{ field: string; message: string }> };

// Each set's schema as the server serves it (a set that extends another resolved): what the
// browser is given to validate with.
const schemas = (parity as unknown as { schemas: Record<string, QuestionsView['schema']> }).schemas;
const copy = enGB.messages as Record<string, string>;
const cases = (parity as { cases: Case[] }).cases;

describe('the browser validates as the server does (tests/parity/cases.json)', () => {
  it('has the cases the server generated, for every question set', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    expect(new Set(cases.map((c) => c.questions))).toEqual(new Set(Object.keys(schemas)));
  });

  it('gives every case the server field errors, word for word', () => {
    const disagreements: string[] = [];
    for (const c of cases) {
      const schema = schemas[c.questions];
      if (!schema) {
        disagreements.push(`${c.questions}: no schema`);
        continue;
      }
      const questions = { id: c.questions, schema, ui: {}, answers: {}, submit: null } as unknown as QuestionsView;
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
