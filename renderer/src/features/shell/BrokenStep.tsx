/**
 * What a customer sees where a step could not be drawn (StepBoundary): the brand's message with
 * the quote reference and phone number, and a way to try again; the failure is reported to the
 * server (`POST /api/render-errors`), cut to what it keeps. Loaded only when needed.
 */
import { useEffect } from 'react';

import { text } from '@/shared/copy';
import { postHeaders } from '@/shared/post-headers';
import type { ViewData } from '@/shared/types';

export function BrokenStep({ view, copy, error: [error, trail] }: { view: ViewData; copy: Record<string, string>; error: [unknown, string] }) {
  const { csrf, qidu: reference } = view;
  const step = view.step.id;
  const phone = view.shell?.phone ?? '';
  useEffect(() => {
    // Reported once; a failed report changes nothing for the customer.
    const message = String(error instanceof Error ? error.message : error).slice(0, 300);
    fetch('/api/render-errors', {
      method: 'POST',
      headers: postHeaders(csrf),
      credentials: 'same-origin',
      body: JSON.stringify({ csrf, step, message, trail: trail.replace(/\s+/g, ' ').trim().slice(0, 1000) }),
    }).catch(() => undefined);
  }, [csrf, step, error, trail]);
  return (
    <div className="failed" role="alert">
      <h1 className="page-title" tabIndex={-1}>
        {text(copy, 'page.broken.title')}
      </h1>
      <p>{text(copy, 'page.broken.body', { reference, phone })}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        {text(copy, 'button.try_again')}
      </button>
    </div>
  );
}
