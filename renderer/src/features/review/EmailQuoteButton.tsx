/**
 * "Email me this quote" (owner-payment.md §7 /api/sendquoteemail): the quote sent to the
 * address the customer gave, with a link back to it. The answer is a toast: where it went, or the
 * server's own words when the quote was sent too often.
 */
import { useState } from 'react';

import type { Notice } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import { postHeaders } from '@/shared/post-headers';

export function EmailQuoteButton({
  csrf,
  copy,
  notify,
}: {
  csrf: string;
  copy: Record<string, string>;
  notify: (notice: Notice) => void;
}) {
  const [sending, setSending] = useState(false);
  async function send() {
    setSending(true);
    try {
      const response = await fetch('/api/sendquoteemail', {
        method: 'POST',
        headers: postHeaders(csrf),
        credentials: 'same-origin',
        body: JSON.stringify({ csrf }),
      });
      const body = (await response.json().catch(() => null)) as { data?: { email?: string }; message?: string } | null;
      if (response.ok && body?.data?.email) {
        notify({ kind: 'success', title: 'toast.success.title', body: text(copy, 'review.email_quote.sent', { email: body.data.email }) });
      } else if (response.status === 429 && body?.message) {
        notify({ kind: 'error', title: 'toast.something_wrong.title', body: body.message });
      } else {
        notify({ kind: 'error', title: 'toast.generic.title', body: 'toast.generic.body' });
      }
    } catch {
      notify({ kind: 'error', title: 'toast.generic.title', body: 'toast.generic.body' });
    } finally {
      setSending(false);
    }
  }
  return (
    <button type="button" className="button button--secondary" disabled={sending} onClick={() => void send()}>
      {text(copy, 'review.email_quote.button')}
    </button>
  );
}
