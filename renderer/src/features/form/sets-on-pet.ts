/** What saving a modal also sets on the pet it edits, as the journey declares it (`sets_on_pet`). */
import type { QuestionsView } from '@/shared/types';

type Answers = Record<string, unknown>;

/**
 * The answers with what the journey says saving this modal also sets on the pet it edits
 * (`sets_on_pet`; journey.md §4: the assumptions modal sets confirm_assumptions true), on that
 * pet only.
 */
export function withSetsOnPet(questions: Pick<QuestionsView, 'sets_on_pet'>, answers: Answers, onlyPet: number | undefined): Answers {
  const sets = questions.sets_on_pet;
  if (!sets || onlyPet === undefined || !Array.isArray(answers.pets)) return answers;
  return { ...answers, pets: (answers.pets as Answers[]).map((p, i) => (i === onlyPet ? { ...p, ...sets } : p)) };
}
