/** The quote's reference, how long it is valid and when cover starts (journey.md §2 Cover select). */
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import { text } from '@/shared/copy';
import type { ViewData } from '@/shared/types';
import '@/features/products/cover.css';

export function QuoteFacts({ view, copy }: { view: ViewData; copy: Record<string, string> }) {
  return (
    <dl className="quote-facts">
      <div>
        <dt>{text(copy, 'cover.quote_reference')}</dt>
        <dd>{view.qidu}</dd>
      </div>
      {view.valid_until && (
        <div>
          <dt>{text(copy, 'cover.valid_until')}</dt>
          <dd>{ukDate(view.valid_until)}</dd>
        </div>
      )}
      <div>
        <dt>{text(copy, 'cover.starts')}</dt>
        <dd>{ukDate(view.start_date.chosen)}</dd>
      </div>
    </dl>
  );
}
