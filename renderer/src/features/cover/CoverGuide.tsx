/**
 * The two-question guide (journey.md §4 Cover selection, the alternate guide, an experiment
 * variation): "cover for short-term and long-term ongoing conditions?" No sets Time Limited and
 * clears the every-year answer; Yes clears the group and asks "cover ongoing conditions every
 * year?": no sets Max Benefit, yes sets Lifetime.
 */
import { useState } from 'react';

import { text } from '@/shared/copy';
import type { Group } from '@/features/products/cover';
import '@/features/products/cover.css';

type Answer = 'yes' | 'no' | null;

function initial(group: Group | null): { longAndShort: Answer; everyYear: Answer } {
  if (group === 'TL') return { longAndShort: 'no', everyYear: null };
  if (group === 'MB') return { longAndShort: 'yes', everyYear: 'no' };
  if (group === 'LT') return { longAndShort: 'yes', everyYear: 'yes' };
  return { longAndShort: null, everyYear: null };
}

function YesNo({
  id,
  legend,
  value,
  onChange,
  copy,
  describedBy,
}: {
  id: string;
  legend: string;
  value: Answer;
  onChange: (a: 'yes' | 'no') => void;
  copy: Record<string, string>;
  describedBy?: string;
}) {
  return (
    <fieldset className="field choice" aria-describedby={describedBy}>
      <legend className="field__label">{legend}</legend>
      <div className="choice__options choice__options--inline">
        {(['yes', 'no'] as const).map((a) => (
          <div className="choice__option" key={a}>
            <input type="radio" id={`${id}-${a}`} name={id} checked={value === a} onChange={() => onChange(a)} />
            <label htmlFor={`${id}-${a}`}>{text(copy, a === 'yes' ? 'common.yes' : 'common.no')}</label>
          </div>
        ))}
      </div>
    </fieldset>
  );
}

export function CoverGuide({
  groups,
  chosen,
  preAnswered,
  copy,
  onGroup,
  onContinue,
}: {
  groups: Group[];
  chosen: Group | null;
  /** The answers are the page's suggestion for the pet, not the customer's: said so until they answer. */
  preAnswered: boolean;
  copy: Record<string, string>;
  /** Sets (or, with null, clears) the cover type. */
  onGroup: (group: Group | null) => void;
  onContinue: () => void;
}) {
  const [answers, setAnswers] = useState(() => initial(chosen));
  const offered = (g: Group) => groups.includes(g);

  function longAndShort(a: 'yes' | 'no') {
    if (a === 'no') {
      setAnswers({ longAndShort: 'no', everyYear: null });
      onGroup(offered('TL') ? 'TL' : null);
    } else {
      setAnswers({ longAndShort: 'yes', everyYear: null });
      onGroup(null);
    }
  }

  function everyYear(a: 'yes' | 'no') {
    setAnswers((s) => ({ ...s, everyYear: a }));
    const g: Group = a === 'yes' ? 'LT' : 'MB';
    onGroup(offered(g) ? g : null);
  }

  const note = preAnswered && chosen ? 'guide-pre-answered' : undefined;
  return (
    <div className="guide">
      <YesNo id="guide-long-short" legend={text(copy, 'cover.guide.long_short')} value={answers.longAndShort} onChange={longAndShort} copy={copy} describedBy={note} />
      {answers.longAndShort === 'yes' && (
        <YesNo id="guide-every-year" legend={text(copy, 'cover.guide.every_year')} value={answers.everyYear} onChange={everyYear} copy={copy} describedBy={note} />
      )}
      {/* Under the answers it is about, and read with each question (aria-describedby). */}
      {note && chosen && (
        <p className="hint guide__pre-answered" id={note}>
          {text(copy, 'cover.guide.pre_answered', { type: text(copy, `cover.type.${chosen.toLowerCase()}`) })}
        </p>
      )}
      {chosen && (
        <div className="panel panel--info guide__result" role="status">
          <p>{text(copy, 'cover.guide.result', { type: text(copy, `cover.type.${chosen.toLowerCase()}`) })}</p>
          <p>{text(copy, `cover.type.${chosen.toLowerCase()}.blurb`)}</p>
          <button type="button" className="button" onClick={onContinue}>
            {text(copy, 'cover.choose_type')}
          </button>
        </div>
      )}
    </div>
  );
}
