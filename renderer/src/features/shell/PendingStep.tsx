/** A step whose page is not built yet: it says which step it is, and nothing more. */
import { text } from '@/shared/copy';
import type { ViewData } from '@/shared/types';
import './shell.css';

export function PendingStep({ view }: { view: ViewData }) {
  return (
    <div className="pending">
      {view.step.bar_number !== null && (
        <p className="pending__step">{text(view.copy, 'pending.step', { number: String(view.step.bar_number), label: view.step.bar_label ?? '' })}</p>
      )}
      <p>{text(view.copy, 'pending.body')}</p>
    </div>
  );
}
