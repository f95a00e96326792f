/**
 * The component library page some brands have (journey.md §2 /library): the journey's building
 * blocks in the brand's colours and type, using the same classes the journey uses.
 */
import { useId } from 'react';

import { text } from '@/shared/copy';
import './pages.css';

export function LibraryPage({ copy }: { copy: Record<string, string> }) {
  const field = useId();
  const error = useId();
  const swatches = ['library.colour.primary', 'library.colour.primary_dark', 'library.colour.accent'];
  return (
    <div className="library">
      <section>
        <h2>{text(copy, 'library.colours')}</h2>
        <ul className="library__swatches">
          {swatches.map((key) => (
            <li key={key} className="library__swatch">
              <span className={`library__chip library__chip--${key.split('.').pop()}`} aria-hidden="true" />
              {text(copy, key)}
            </li>
          ))}
        </ul>
      </section>
      <section>
        <h2>{text(copy, 'library.buttons')}</h2>
        <div className="actions">
          <button type="button" className="button">{text(copy, 'button.next')}</button>
          <button type="button" className="button button--secondary">{text(copy, 'button.cancel')}</button>
        </div>
      </section>
      <section>
        <h2>{text(copy, 'library.fields')}</h2>
        <div className="field field--error">
          <label className="field__label" htmlFor={field}>{text(copy, 'library.field_example')}</label>
          <input id={field} className="text-input" type="text" aria-invalid="true" aria-describedby={error} />
          <p id={error} className="field__error">{text(copy, 'library.error_example')}</p>
        </div>
      </section>
      <section>
        <h2>{text(copy, 'library.messages')}</h2>
        <p className="block" role="note">{text(copy, 'pet.xl_bully.refused')}</p>
      </section>
    </div>
  );
}
