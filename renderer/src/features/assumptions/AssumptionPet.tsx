/**
 * One pet on the assumptions page (journey.md §2 Assumptions): what we assume as a list of
 * answers (a question with no answer yet asked here), the pre-existing conditions prompt for a
 * referred pet, the tick "Yes, they're correct" and "No, change assumptions".
 */
import { propertySchema, petQuestions } from '@/features/form/EditDialog';
import { text } from '@/shared/copy';
import { preExistingReferred } from '@/shared/pets';
import type { QuestionsView, ViewData } from '@/shared/types';
import { type Modal, type Pet, answerText, askedOf } from './assumptions';

export function AssumptionPet({
  view,
  copy,
  pet,
  index: i,
  name,
  errorOf,
  askedHere,
  onAnswer,
  onTick,
  onModal,
}: {
  view: ViewData;
  copy: Record<string, string>;
  pet: Pet;
  index: number;
  name: string;
  errorOf: ReadonlyMap<string, string>;
  askedHere: ReadonlySet<string>;
  onAnswer: (index: number, question: string, value: unknown) => void;
  onTick: (index: number, on: boolean) => void;
  onModal: (modal: Modal) => void;
}) {
  const questions = view.questions as QuestionsView;
  const { item, ui } = petQuestions(questions);
  const edits = view.edits;
  const storedPets = view.pets;
  const headingId = `assumptions-${i}-heading`;
  const tickId = `root_pets_${i}_assumptions_correct`;
  const tickError = errorOf.get(`pets[${i}].assumptions_correct`);
  const stored = storedPets[i] ?? {};
  const referred = preExistingReferred(view, i);
  const detailsAdded = typeof stored.vet_name === 'string' || stored.provide_vet_later === true;
  return (
    <section className="assumption-pet card" aria-labelledby={headingId}>
      <h2 id={headingId} className="pet__heading">
        {text(copy, 'assumptions.pet_heading', { petName: name })}
      </h2>
      <dl className="summary">
        {askedOf(questions, pet).map((q) => {
          const qUi = ui[q];
          const warning = ((qUi?.['ui:options'] as Record<string, unknown> | undefined)?.warnings as Record<string, string> | undefined)?.[String(pet[q])];
          const qError = errorOf.get(`pets[${i}].${q}`);
          const labelId = `assumption-${i}-${q}`;
          if (askedHere.has(`${i}:${q}`)) {
            const schema = propertySchema(item, q);
            const values = (schema?.enum as unknown[] | undefined) ?? ['yes', 'no'];
            const names = qUi?.['ui:enumNames'] as string[] | undefined;
            return (
              <div className="summary__row summary__row--ask" key={q} data-field={`pets[${i}].${q}`}>
                <dt id={labelId}>{String(qUi?.['ui:title'] ?? q)}</dt>
                <dd>
                  <div className="choice__options choice__options--inline" role="radiogroup" aria-labelledby={labelId} aria-invalid={qError ? true : undefined}>
                    {values.map((v, k) => (
                      <div className="choice__option" key={String(v)}>
                        <input
                          type="radio"
                          id={`assumed_pets_${i}_${q}-${k}`}
                          name={`assumed_pets_${i}_${q}`}
                          checked={pet[q] === v}
                          onChange={() => onAnswer(i, q, v)}
                        />
                        <label htmlFor={`assumed_pets_${i}_${q}-${k}`}>{names?.[k] ?? String(v)}</label>
                      </div>
                    ))}
                  </div>
                </dd>
                {warning && <dd className="summary__warning">{text(copy, warning)}</dd>}
                {qError && <dd className="field__error summary__error">{qError}</dd>}
              </div>
            );
          }
          return (
            <div className="summary__row" key={q} data-field={`pets[${i}].${q}`}>
              <dt>{String(qUi?.['ui:title'] ?? q)}</dt>
              <dd>{answerText(qUi, propertySchema(item, q), pet[q])}</dd>
              {warning && <dd className="summary__warning">{text(copy, warning)}</dd>}
              {qError && <dd className="field__error summary__error">{qError}</dd>}
            </div>
          );
        })}
      </dl>
      {referred && edits.pre_existing && (
        <div className={`panel ${detailsAdded ? 'panel--info' : 'panel--warning'}`}>
          <p>{text(copy, detailsAdded ? 'pre_existing.added' : 'pre_existing.prompt', { petName: name })}</p>
          <button type="button" className="button button--secondary" onClick={() => onModal({ kind: 'pre_existing', pet: i })}>
            {text(copy, detailsAdded ? 'pre_existing.edit' : 'pre_existing.add')}
            <span className="visually-hidden"> – {name}</span>
          </button>
        </div>
      )}
      <div className={`confirm-tick${tickError ? ' field--error' : ''}`} data-field={`pets[${i}].assumptions_correct`}>
        {tickError && (
          <p className="field__error" id={`${tickId}__error`}>
            <span className="visually-hidden">{text(copy, 'form.error_prefix')} </span>
            {tickError}
          </p>
        )}
        <div className="checkbox">
          <input
            type="checkbox"
            id={tickId}
            checked={pet.assumptions_correct === true}
            aria-invalid={tickError ? true : undefined}
            aria-describedby={tickError ? `${tickId}__error` : undefined}
            onChange={(e) => onTick(i, e.target.checked)}
          />
          <label htmlFor={tickId}>
            {String(ui.assumptions_correct?.['ui:title'] ?? text(copy, 'assumptions.confirm.label'))}
            <span className="visually-hidden"> – {name}</span>
          </label>
        </div>
      </div>
      {edits.assumptions && (
        <button type="button" className="link-button" onClick={() => onModal({ kind: 'assumptions', pet: i })}>
          {text(copy, 'assumptions.change')}
          <span className="visually-hidden"> – {name}</span>
        </button>
      )}
    </section>
  );
}
