/**
 * The frame around every page (journey.md §2 Shell): the header with the brand's logo linking out
 * to the brand's site and its sales number and hours, the usp bar, and the footer with the
 * brand's page links and regulatory text. Everything comes from the brand's settings and copy.
 *
 * The HTML shell (renderer/index.html, filled in by server/src/routes/pages.rs first_paint_frame)
 * draws the same markup before the script arrives, so the first paint needs no script; a change
 * here is made there too, and tests/e2e/first-paint.spec.ts fails until it is.
 */
import type { MouseEvent } from 'react';

import { text } from '@/shared/copy';
import type { ShellView } from '@/shared/types';
import './shell.css';

type Copy = Record<string, string>;

/** The digits of a phone number, for its tel: link. */
function telHref(phone: string): string {
  return `tel:${phone.replace(/\s+/g, '')}`;
}

/** "fr-FR" → "language.name.fr_fr": each language's name in itself. */
function languageNameKey(language: string): string {
  return `language.name.${language.toLowerCase().replace(/-/g, '_')}`;
}

/**
 * The language chooser (journey.md §1, owner-payment.md §2 Other): only when the brand has more
 * than one language. Each language is named in itself ("English", "Français"); the one being
 * read is marked current.
 */
function LanguageChooser({ languages, current, copy, onChoose }: { languages: string[]; current: string; copy: Copy; onChoose: (language: string) => void }) {
  return (
    <nav className="languages" aria-label={text(copy, 'language.label')}>
      <ul className="languages__list">
        {languages.map((language) => (
          <li key={language}>
            {language === current ? (
              <span className="languages__current" lang={language} aria-current="true">
                {text(copy, languageNameKey(language))}
              </span>
            ) : (
              <button type="button" className="languages__choice" lang={language} onClick={() => onChoose(language)}>
                {text(copy, languageNameKey(language))}
              </button>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

export function Header({
  shell,
  copy,
  language,
  onLanguage,
}: {
  shell: ShellView | null;
  copy: Copy;
  language: string;
  /** Absent until the page has a quote to keep the choice. */
  onLanguage?: (language: string) => void;
}) {
  return (
    <header className="header">
      <div className="header__inner">
        {shell ? (
          <a className="header__logo" href={shell.site_url} aria-label={text(copy, 'header.logo_link')}>
            <img src={shell.logo_url} alt="" height="48" />
          </a>
        ) : (
          <span className="header__brand">{text(copy, 'app.brand')}</span>
        )}
        <span className="header__product">{text(copy, 'app.name')}</span>
        {shell && (
          <p className="header__phone">
            <a href={telHref(shell.phone)}>{text(copy, 'header.call_us', { phone: shell.phone })}</a>
            <span className="header__hours">{shell.hours}</span>
          </p>
        )}
        {shell && shell.languages.length > 1 && onLanguage && (
          <LanguageChooser languages={shell.languages} current={language} copy={copy} onChoose={onLanguage} />
        )}
      </div>
    </header>
  );
}

/** journey.md §2 Usp bar: multi-pet discount, claims paid direct to vet, 24/7 vet nurse, portal. */
export function UspBar({ copy }: { copy: Copy }) {
  const items = ['usp.multi_pet', 'usp.direct_to_vet', 'usp.vet_nurse', 'usp.portal'];
  return (
    <section className="usp-bar" aria-label={text(copy, 'usp.label')}>
      <ul className="usp-bar__list">
        {items.map((key) => (
          <li key={key} className="usp-bar__item">
            <span className="usp-bar__tick" aria-hidden="true">✓</span>
            {text(copy, key)}
          </li>
        ))}
      </ul>
    </section>
  );
}

export function Footer({ shell, copy, onOpen, onCookieSettings }: { shell: ShellView | null; copy: Copy; onOpen: (path: string) => void; onCookieSettings: () => void }) {
  const follow = (path: string) => (e: MouseEvent<HTMLAnchorElement>) => {
    if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
    e.preventDefault();
    onOpen(path);
  };
  const links: Array<[string, string | null | undefined]> = [
    ['footer.privacy', shell?.pages.privacy],
    ['footer.terms', shell?.pages.terms],
    ['footer.support', shell?.pages.support],
    // The component library (journey.md §2 /library) is for the brand's own teams: at its
    // address, not in the customers' footer.
  ];
  return (
    <footer className="footer">
      <div className="footer__inner">
        {shell && (
          <nav aria-label={text(copy, 'footer.links_label')}>
            <ul className="footer__links">
              {links
                .filter((l): l is [string, string] => Boolean(l[1]))
                .map(([key, path]) => (
                  <li key={key}>
                    <a href={path} onClick={follow(path)}>
                      {text(copy, key)}
                    </a>
                  </li>
                ))}
              {/* The cookie choice, changeable from every page. */}
              {shell.tag_manager && (
                <li>
                  <button type="button" className="footer__cookies" onClick={onCookieSettings}>
                    {text(copy, 'footer.cookies')}
                  </button>
                </li>
              )}
            </ul>
          </nav>
        )}
        <p className="footer__regulatory">{text(copy, 'footer.regulatory')}</p>
      </div>
    </footer>
  );
}
