/**
 * The pages around the journey (journeys/pages.json; journey.md §2): privacy and cookie policy,
 * terms, contact and FAQs. Sections of the brand's copy; the contact page adds the sales number
 * and hours and the questions as disclosures.
 */
import { text } from '@/shared/copy';
import type { ShellView, StaticPageView } from '@/shared/types';

import { LibraryPage } from './LibraryPage';
import './pages.css';

/** The pages that end with the sales number: contact, and the annual rehoming link's pages. */
const CALL_US: StaticPageView['id'][] = ['support', 'policy_link_expired', 'already_purchased', 'policy_terminated'];

export function StaticPage({ page, shell, copy, onOpen }: { page: StaticPageView; shell: ShellView | null; copy: Record<string, string>; onOpen: (path: string) => void }) {
  return (
    <div className={`static-page static-page--${page.id}`}>
      {page.sections.map((section) => (
        <section key={section.heading} className="static-page__section">
          <h2>{section.heading}</h2>
          {section.paragraphs.map((p) => (
            <p key={p}>{p}</p>
          ))}
        </section>
      ))}
      {CALL_US.includes(page.id) && shell && (
        <section className="static-page__call">
          <p className="static-page__phone">
            <a href={`tel:${shell.phone.replace(/\s+/g, '')}`}>{text(copy, 'page.support.call', { phone: shell.phone })}</a>
          </p>
          <p>{text(copy, 'page.support.hours', { hours: shell.hours })}</p>
        </section>
      )}
      {page.faqs.length > 0 && (
        <section className="static-page__faqs">
          {page.faqs.map((faq) => (
            <details key={faq.question} className="faq">
              <summary className="faq__question">{faq.question}</summary>
              <p className="faq__answer">{faq.answer}</p>
            </details>
          ))}
        </section>
      )}
      {page.id === 'library' && <LibraryPage copy={copy} />}
      <p className="static-page__back">
        <a
          href="/quote"
          onClick={(e) => {
            if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
            e.preventDefault();
            onOpen('/quote');
          }}
        >
          {text(copy, 'page.back_to_quote')}
        </a>
      </p>
    </div>
  );
}
