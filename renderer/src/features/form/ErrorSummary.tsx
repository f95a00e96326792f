/**
 * "Please Check the following fields:" (journey.md §2 Error summary): every invalid field,
 * prefixed with the pet's name for a pet's field, each a link that moves focus to the field.
 */
import type { FieldMessage } from '@/shared/types';
import { text } from '@/shared/copy';
import { fieldId } from './field-errors';
import { knownName } from './named-questions';
import './form.css';

export function focusField(field: string): boolean {
  const wrapper = document.querySelector<HTMLElement>(`[data-field="${CSS.escape(field)}"]`);
  const target =
    wrapper?.querySelector<HTMLElement>('input:not([type=hidden]):not([disabled]), select, textarea') ??
    document.getElementById(fieldId(field));
  if (!target) return false;
  target.scrollIntoView({ block: 'center' });
  target.focus();
  return true;
}

/** The field's label from the UI hints: `pets[0].pet_name` → ui.pets.items.pet_name['ui:title']. */
export function fieldLabel(field: string, ui: Record<string, unknown>): string | undefined {
  let node: unknown = ui;
  for (const part of field.split(/[.[\]]+/).filter(Boolean)) {
    if (node === null || typeof node !== 'object') return undefined;
    const n = node as Record<string, unknown>;
    node = /^[0-9]+$/.test(part) ? n.items : n[part];
  }
  const title = (node as Record<string, unknown> | undefined)?.['ui:title'];
  return typeof title === 'string' ? title : undefined;
}

/**
 * What the summary says before the message: the question as the pet's form asks it ("Is Rex male
 * or female?"), or, for a question without a named wording, the pet's name before the question.
 */
function summaryLabel(field: string, ui: Record<string, unknown>, pets: ReadonlyArray<Record<string, unknown>>, copy: Record<string, string>): string {
  const label = fieldLabel(field, ui);
  const match = /^pets\[(\d+)\]\.(\w+)/.exec(field);
  const name = match ? knownName(pets[Number(match[1])]) : null;
  if (!match || name === null) return label ? `${label} – ` : '';
  const hints = ((ui.pets as Record<string, unknown> | undefined)?.items as Record<string, Record<string, unknown>> | undefined)?.[match[2]];
  const namedKey = (hints?.['ui:options'] as Record<string, unknown> | undefined)?.namedLabel;
  if (typeof namedKey === 'string' && namedKey in copy) return `${text(copy, namedKey, { name })} – `;
  return `${name}: ${label ? `${label} – ` : ''}`;
}

export function ErrorSummary({
  errors,
  pets,
  ui,
  copy,
}: {
  errors: readonly FieldMessage[];
  pets: ReadonlyArray<Record<string, unknown>>;
  ui: Record<string, unknown>;
  copy: Record<string, string>;
}) {
  if (errors.length === 0) return null;
  return (
    <div className="error-summary" role="alert" aria-labelledby="error-summary-title">
      <h2 className="error-summary__title" id="error-summary-title">
        {text(copy, 'form.error_summary')}
      </h2>
      <ul className="error-summary__list">
        {errors.map((e) => (
          <li key={e.field}>
            <a
              href={`#${fieldId(e.field)}`}
              onClick={(event) => {
                if (focusField(e.field)) event.preventDefault();
              }}
            >
              {summaryLabel(e.field, ui, pets, copy)}
              {e.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}
