/**
 * The rehoming centre chooser (journey.md §1 Extra flows; owner-payment.md §3: rehoming
 * addresses have contactname, address1 to address4, postcode): the brand's partner centres from
 * /api/getrehomingcentres, as a select. The server checks the answer is one of them (rule
 * rehoming_centre_known).
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useEffect, useState } from 'react';

import { text } from '@/shared/copy';
import { CopyContext, describedBy, useFieldError } from '../field-errors';

export interface RehomingCentre {
  id: string;
  contactname: string;
  address1: string;
  address2?: string;
  address3?: string;
  address4?: string;
  postcode: string;
}

/** "Harbourside Rescue Steps, Bristol BS1 6XX": the name, the town (the last address line) and the postcode. */
export function centreLabel(c: RehomingCentre): string {
  const town = [c.address4, c.address3, c.address2].find((line) => line && line.length > 0);
  return `${c.contactname}, ${town ? `${town} ` : ''}${c.postcode}`;
}

export function RehomingCentreWidget({ id, value, onChange, onBlur, uiSchema, disabled, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const error = useFieldError(id);
  const hasHelp = typeof uiSchema?.['ui:help'] === 'string';
  const [centres, setCentres] = useState<RehomingCentre[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    fetch('/api/getrehomingcentres', { headers: { Accept: 'application/json' }, credentials: 'same-origin' })
      .then(async (r) => {
        if (!r.ok) throw new Error(String(r.status));
        const body = (await r.json()) as { data?: { centres?: RehomingCentre[] } };
        if (live) setCentres(body.data?.centres ?? []);
      })
      .catch(() => {
        if (live) setFailed(true);
      });
    return () => {
      live = false;
    };
  }, []);
  if (failed) {
    return (
      <p className="field__error" role="alert">
        {text(copy, 'rehoming.centre.failed')}
      </p>
    );
  }
  return (
    <select
      id={id}
      name={id}
      className="select"
      value={typeof value === 'string' ? value : ''}
      disabled={disabled || readonly || centres === null}
      aria-busy={centres === null ? true : undefined}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(id, Boolean(error), hasHelp)}
      onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
      onBlur={() => onBlur(id, value)}
    >
      <option value="">{text(copy, centres === null ? 'rehoming.centre.loading' : 'rehoming.centre.choose')}</option>
      {(centres ?? []).map((c) => (
        <option key={c.id} value={c.id}>
          {centreLabel(c)}
        </option>
      ))}
    </select>
  );
}
