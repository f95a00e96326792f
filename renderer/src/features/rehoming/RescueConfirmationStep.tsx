/**
 * The rehoming flow's confirmation (journey.md §2 Routes: rehoming /confirmation, step 4): the
 * details to check, the free cover (owner-payment.md §9: 28 days, no third party liability) and
 * "Activate my free cover". Activating has the certificate scanned first: a detail code shows its
 * warning word for word (owner-payment.md §6: 10107, 10108 to 10111) and nothing is issued. Once
 * active, the policy number, and the cover's email is asked for (sent once, however often asked).
 */
import { type ReactNode, useEffect, useRef, useState } from 'react';

import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { centreLabel } from '@/features/form/widgets/RehomingCentreWidget';
import { ownerName, text } from '@/shared/copy';
import { postHeaders } from '@/shared/post-headers';
import type { ViewData } from '@/shared/types';
import './rehoming.css';

interface Props {
  view: ViewData;
  copy: Record<string, string>;
  onOpen: (path: string) => void;
  onActivated: () => void;
}

type Activation =
  | { state: 'idle' }
  | { state: 'busy' }
  | { state: 'warning'; code: number; message: string }
  | { state: 'failed' };

async function post(url: string, csrf: string): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: postHeaders(csrf),
    credentials: 'same-origin',
    body: JSON.stringify({ csrf, locale: 'en-GB' }),
  });
}

export function RescueConfirmationStep({ view, copy, onOpen, onActivated }: Props) {
  const rescue = view.rescue;
  const [activation, setActivation] = useState<Activation>({ state: 'idle' });
  const [emailed, setEmailed] = useState(false);
  const warning = useRef<HTMLDivElement>(null);
  const active = Boolean(rescue?.policy_number);
  const pet = view.pets[0] ?? {};
  const petName = String(pet.pet_name ?? '');
  const email = String(view.owner.email_address ?? '');
  const base = view.step.path.replace(/\/confirmation$/, '');

  useEffect(() => {
    if (!active) return;
    let live = true;
    void post('/api/confirmationRescueEmail', view.csrf).then((r) => {
      if (live && r.ok) setEmailed(true);
    });
    return () => {
      live = false;
    };
  }, [active, view.csrf]);

  useEffect(() => {
    if (activation.state === 'warning' || activation.state === 'failed') warning.current?.focus();
  }, [activation]);

  if (!rescue) return null;

  const activate = async () => {
    setActivation({ state: 'busy' });
    try {
      const response = await post('/api/confirmationrescue', view.csrf);
      const body = (await response.json()) as { outcome?: string; detail_code?: number; warning?: string };
      if (response.ok && body.outcome === 'activated') {
        setActivation({ state: 'idle' });
        onActivated();
      } else if (response.ok && body.outcome === 'warning' && typeof body.detail_code === 'number') {
        setActivation({ state: 'warning', code: body.detail_code, message: body.warning ?? '' });
      } else {
        setActivation({ state: 'failed' });
      }
    } catch {
      setActivation({ state: 'failed' });
    }
  };

  const cover = <RescueCover rescue={rescue} copy={copy} />;

  if (active) {
    return <RescueActive rescue={rescue} copy={copy} cover={cover} petName={petName} email={email} emailed={emailed} />;
  }

  const change = (path: string, label: string) => (
    <a
      href={`${base}${path}`}
      onClick={(e) => {
        e.preventDefault();
        onOpen(`${base}${path}`);
      }}
    >
      {text(copy, 'rehoming.check.change')}
      <span className="visually-hidden"> {label}</span>
    </a>
  );
  const owner = view.owner;
  const name = ownerName(copy, owner);
  return (
    <div className="rescue">
      <section className="card" aria-labelledby="rescue-check-heading">
        <h2 id="rescue-check-heading" className="pet__heading">
          {text(copy, 'rehoming.check.title')}
        </h2>
        <p>{text(copy, 'rehoming.check.body')}</p>
        <dl className="summary-list">
          <div>
            <dt>{text(copy, 'rehoming.check.centre')}</dt>
            <dd>{rescue.centre ? centreLabel(rescue.centre) : ''}</dd>
            <dd>{change('/', text(copy, 'rehoming.check.centre'))}</dd>
          </div>
          <div>
            <dt>{text(copy, 'rehoming.check.rehomed')}</dt>
            <dd>{rescue.rehome_date ? ukDate(rescue.rehome_date) : ''}</dd>
            <dd>{change('/', text(copy, 'rehoming.check.rehomed'))}</dd>
          </div>
          <div>
            <dt>{text(copy, 'rehoming.check.pet')}</dt>
            <dd>{petName}</dd>
            <dd>{change('/your-pet', text(copy, 'rehoming.check.pet'))}</dd>
          </div>
          <div>
            <dt>{text(copy, 'rehoming.check.certificate')}</dt>
            <dd>{rescue.certificate_number ?? ''}</dd>
            <dd>{change('/your-pet', text(copy, 'rehoming.check.certificate'))}</dd>
          </div>
          <div>
            <dt>{text(copy, 'rehoming.check.owner')}</dt>
            <dd>{name}</dd>
            <dd>{change('/your-details', text(copy, 'rehoming.check.owner'))}</dd>
          </div>
          <div>
            <dt>{text(copy, 'rehoming.check.email')}</dt>
            <dd>{email}</dd>
            <dd>{change('/your-details', text(copy, 'rehoming.check.email'))}</dd>
          </div>
        </dl>
      </section>
      {cover}
      {activation.state === 'warning' && (
        <div className="block" role="alert" tabIndex={-1} ref={warning} data-detail-code={activation.code}>
          <p>{activation.message}</p>
          {activation.code === 10107 && (
            <p>
              <a
                href={`${base}/your-pet`}
                onClick={(e) => {
                  e.preventDefault();
                  onOpen(`${base}/your-pet`);
                }}
              >
                {text(copy, 'rehoming.warning.back')}
              </a>
            </p>
          )}
        </div>
      )}
      {activation.state === 'failed' && (
        <div className="block" role="alert" tabIndex={-1} ref={warning}>
          <p>{text(copy, 'toast.generic.body')}</p>
        </div>
      )}
      <div className="actions">
        <button type="button" className="button" disabled={activation.state === 'busy'} aria-busy={activation.state === 'busy' ? true : undefined} onClick={() => void activate()}>
          {activation.state === 'busy' ? text(copy, 'rehoming.activating') : text(copy, 'rehoming.activate')}
        </button>
      </div>
    </div>
  );
}

/** The site-relative part of the annual link (the email carries it whole). */
function linkPath(link: string): string {
  try {
    const url = new URL(link, window.location.origin);
    return url.pathname + url.search;
  } catch {
    return link;
  }
}

type Rescue = NonNullable<ViewData['rescue']>;

/** The free cover the rescue gives (owner-payment.md §9: 28 days, no third party liability). */
function RescueCover({ rescue, copy }: { rescue: Rescue; copy: Record<string, string> }) {
  return (
    <section className="card" aria-labelledby="rescue-cover-heading">
      <h2 id="rescue-cover-heading" className="pet__heading">
        {text(copy, 'rehoming.cover.title')}
      </h2>
      <ul className="rescue__cover">
        <li>{text(copy, 'rehoming.cover.days', { days: String(rescue.days), start: ukDate(rescue.start), end: ukDate(rescue.end) })}</li>
        <li>{text(copy, 'rehoming.cover.vet_fees', { limit: rescue.vet_fee_limit })}</li>
        {rescue.excess && <li>{text(copy, 'rehoming.cover.excess', { excess: rescue.excess })}</li>}
        <li>
          <strong>{text(copy, 'rehoming.cover.no_tpl')}</strong>
        </li>
        <li>{text(copy, 'rehoming.cover.free')}</li>
      </ul>
    </section>
  );
}

/** The cover activated: its policy number, the email sent, and the way on to annual cover. */
function RescueActive({
  rescue,
  copy,
  cover,
  petName,
  email,
  emailed,
}: {
  rescue: Rescue;
  copy: Record<string, string>;
  cover: ReactNode;
  petName: string;
  email: string;
  emailed: boolean;
}) {
  return (
    <div className="confirmation">
      <section className="card" aria-labelledby="rescue-done-heading">
        <h2 id="rescue-done-heading" className="pet__heading">
          {text(copy, 'rehoming.done.title', { petName })}
        </h2>
        <dl className="summary-list">
          <div>
            <dt>{text(copy, 'rehoming.done.policy')}</dt>
            <dd>
              <strong>{rescue.policy_number}</strong>
            </dd>
          </div>
        </dl>
        <p role="status">{emailed ? text(copy, 'rehoming.done.emailed', { email }) : ''}</p>
      </section>
      {cover}
      <p>{text(copy, 'rehoming.done.next', { petName })}</p>
      {rescue.annual_link && (
        <section className="card rescue__annual" aria-labelledby="rescue-annual-heading">
          <h2 id="rescue-annual-heading" className="pet__heading">
            {text(copy, 'rehoming.done.annual', { petName })}
          </h2>
          <p>{text(copy, 'rehoming.annual.excess')}</p>
          {/* A page load, not a step: the link makes the annual quote and its session. */}
          <a className="button" href={linkPath(rescue.annual_link)}>
            {text(copy, 'rehoming.email.annual_link')}
          </a>
        </section>
      )}
    </div>
  );
}
