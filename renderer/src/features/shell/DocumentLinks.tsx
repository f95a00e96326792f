/** A list of product documents, each opening in a new tab (owner-payment.md §3 Documents). */
import { text } from '@/shared/copy';
import type { DocumentLink } from '@/shared/types';
import './shell.css';

export function DocumentLinks({ documents, copy, suffix }: { documents: readonly DocumentLink[]; copy: Record<string, string>; suffix?: string }) {
  return (
    <ul className="documents__list">
      {documents.map((d) => (
        <li key={d.name}>
          <a href={d.url} target="_blank" rel="noopener">
            {d.title}
            <span className="visually-hidden">
              {suffix ? ` – ${suffix}` : ''} {text(copy, 'link.new_tab')}
            </span>
          </a>
        </li>
      ))}
    </ul>
  );
}
