/**
 * The cover select page (journey.md §2 Cover select; §4 Cover selection; §9): for each pet in
 * turn, tabs Cover type, Cover level and Excess with "Step x of y"; the cover type tiles; the
 * cover level table as a carousel (3 columns small, 5 large, breakpoint 579 px) with stepper and
 * dots; the excess choosers (hidden when there is only one option), each change re-quoting the
 * pet through /api/getFlexProducts; the claim example; "What's included?" with the benefits
 * table modal; the upsell; the sticky price bar with Next / Back / Continue. Every price and
 * every option comes from the server's products; this page only chooses among them.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';

import { ErrorSummary } from '@/features/form/ErrorSummary';
import { ukDate } from '@/features/form/widgets/StartDateWidget';
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { DocumentLinks } from '@/features/shell/DocumentLinks';
import { Modal } from '@/features/shell/Modal';
import { BestBuyBanner } from '@/features/shell/BestBuyBanner';
import { ClaimTerms } from './ClaimTerms';
import { coverTypeName, text } from '@/shared/copy';
import { fromPence, toPence, useMoney } from '@/shared/money';
import type { FieldMessage, PetDocuments, Product, ViewData } from '@/shared/types';
import { markViewed } from '@/shared/experiments';
import { CoverGuide } from './CoverGuide';
import { type Group, defaultProduct, excessOptions, groupsOf, initialGroup, inGroup, percentOf, productsOf, upsells } from './cover';
import './cover.css';

type Tab = 'type' | 'level' | 'excess';

interface Choice {
  group: Group | null;
  code: string | null;
}

/** journey.md §2: 3 columns on small screens, 5 on large, breakpoint 579 px. */
const WIDE = '(min-width: 579px)';

function useColumns(): number {
  const query = typeof window !== 'undefined' && window.matchMedia ? window.matchMedia(WIDE) : null;
  const [wide, setWide] = useState(query?.matches ?? true);
  useEffect(() => {
    if (!query) return;
    const on = () => setWide(query.matches);
    query.addEventListener('change', on);
    return () => query.removeEventListener('change', on);
  }, [query]);
  return wide ? 5 : 3;
}

/** Whether an element has been in view (journey.md §4: submit waits for the benefits block). */
function useSeen(ref: React.RefObject<HTMLElement | null>, reset: unknown): boolean {
  const [seen, setSeen] = useState(false);
  useEffect(() => {
    setSeen(false);
    const el = ref.current;
    if (!el) return;
    if (typeof IntersectionObserver === 'undefined') {
      setSeen(true);
      return;
    }
    // Not seen while it is only under the sticky price bar.
    const bar = parseInt(getComputedStyle(document.documentElement).getPropertyValue('--price-bar-height'), 10) || 0;
    const io = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setSeen(true);
      },
      { rootMargin: `0px 0px -${bar}px 0px` },
    );
    io.observe(el);
    return () => io.disconnect();
  }, [ref, reset]);
  return seen;
}

/**
 * The sticky price bar never hides what has focus (WCAG 2.2 2.4.11 Focus Not Obscured): once the
 * browser has scrolled a newly focused element into view, one that ends under the bar is
 * scrolled up clear of it. Keeps `--price-bar-height` on the document at the bar's height (what
 * counts as seen of the benefits block leaves it out).
 */
function useBarHeight(ref: React.RefObject<HTMLElement | null>) {
  useEffect(() => {
    const bar = ref.current;
    const root = document.documentElement;
    if (!bar) return;
    const set = () => root.style.setProperty('--price-bar-height', `${Math.ceil(bar.getBoundingClientRect().height)}px`);
    set();
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(set);
    observer?.observe(bar);
    let frame = 0;
    const clear = (e: FocusEvent) => {
      const target = e.target;
      if (!(target instanceof HTMLElement) || bar.contains(target)) return;
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => {
        const barTop = bar.getBoundingClientRect().top;
        const r = target.getBoundingClientRect();
        // A margin for the focus ring (3 px outline, 2 px offset, 5 px shadow).
        if (r.bottom + 8 <= barTop) return;
        // One taller than the room above the bar shows from its top.
        window.scrollBy({ top: r.height + 16 > barTop ? r.top - 8 : r.bottom + 8 - barTop });
      });
    };
    document.addEventListener('focusin', clear);
    return () => {
      observer?.disconnect();
      document.removeEventListener('focusin', clear);
      cancelAnimationFrame(frame);
      root.style.removeProperty('--price-bar-height');
    };
  }, [ref]);
}

function termValue(copy: Record<string, string>, t: Product['PolicyTerms'][number]): string {
  return t.val_key ? text(copy, t.val_key) : (t.val ?? '');
}

export function ChoosePolicyStep({
  view,
  copy,
  busy,
  requoting,
  serverErrors,
  onSubmit,
  onChange,
  notify,
}: {
  view: ViewData;
  copy: Record<string, string>;
  busy: boolean;
  requoting: boolean;
  serverErrors: readonly FieldMessage[];
  onSubmit: (answers: Record<string, unknown>) => void;
  onChange: (request: EditRequest) => void;
  notify: (notice: Notice) => void;
}) {
  const { amount, price } = useMoney();
  const pets = view.pets;
  const [current, setCurrent] = useState(0);
  const [choices, setChoices] = useState<Choice[]>(() =>
    pets.map((pet, i) => {
      const mine = productsOf(view.products, i + 1);
      const stored = (pet.product as { Code?: string; RecurringMonthly?: string } | undefined) ?? undefined;
      const storedCode = stored?.RecurringMonthly ? (stored.Code ?? null) : null;
      const group = initialGroup(mine, String(pet.pet_type ?? ''), storedCode);
      const code = group ? (defaultProduct(inGroup(mine, group), storedCode)?.Code ?? null) : null;
      return { group, code };
    }),
  );
  const [upsellUsed, setUpsellUsed] = useState<Set<number>>(new Set());
  const [clientError, setClientError] = useState<string | null>(null);
  const [benefitsOpen, setBenefitsOpen] = useState(false);
  const pet = pets[current] ?? {};
  const petName = String(pet.pet_name ?? '');
  const mine = useMemo(() => productsOf(view.products, current + 1), [view.products, current]);
  const groups = groupsOf(mine);
  const choice = choices[current] ?? { group: null, code: null };
  const chosen = mine.find((p) => p.Code === choice.code);
  const shownGroup = inGroup(mine, choice.group);
  const tabs: Tab[] = [...(groups.length > 1 ? (['type'] as Tab[]) : []), 'level', 'excess'];
  const [tab, setTab] = useState<Tab>(tabs[0]);
  const tabsRef = useRef<HTMLDivElement>(null);
  const included = useRef<HTMLElement>(null);
  const includedHeading = useRef<HTMLHeadingElement>(null);
  const priceBar = useRef<HTMLDivElement>(null);
  useBarHeight(priceBar);
  const seenBenefits = useSeen(included, `${current}:${choice.code ?? ''}`);
  const headingId = useId();
  const last = current === pets.length - 1;
  // journey.md §4: the cover type tiles, or the two-question guide (an experiment variation).
  const guide = view.experiments?.cover_type_guide === 'guide';
  useEffect(() => {
    if (tab === 'type') markViewed('cover_type_guide', guide ? 'guide' : 'tiles');
  }, [tab, guide]);

  const setChoice = (next: Partial<Choice>) =>
    setChoices((all) => all.map((c, i) => (i === current ? { ...c, ...next } : c)));

  function chooseGroup(group: Group) {
    // journey.md §4: changing the cover type clears the chosen limit.
    setChoice({ group, code: group === choice.group ? choice.code : null });
    setClientError(null);
    setTab('level');
  }

  function openTab(next: Tab) {
    if (next !== 'type' && !choice.group) {
      setClientError(text(copy, 'cover.no_product'));
      return;
    }
    setClientError(null);
    setTab(next);
  }

  function requote(fields: { set_excess?: string; set_coins?: string }) {
    if (!chosen && !shownGroup[0]) return;
    const base = chosen ?? shownGroup[0];
    onChange({
      call: '/api/getFlexProducts',
      answers: {
        pets: [
          {
            id: current + 1,
            set_excess: fields.set_excess ?? base.FlexyProductsOptions.current_set_excess,
            // journey.md §7: the percentage divided by 100.
            set_coins: Number(fields.set_coins ?? base.FlexyProductsOptions.current_variable_excess),
          },
        ],
      },
    });
  }

  function next() {
    if (!choice.code) {
      setClientError(text(copy, 'cover.no_product'));
      return;
    }
    if (!last) {
      setCurrent(current + 1);
      setTab(productsOf(view.products, current + 2).length && groupsOf(productsOf(view.products, current + 2)).length > 1 ? 'type' : 'level');
      window.scrollTo({ top: 0 });
      tabsRef.current?.querySelector<HTMLElement>('[role=tab][aria-selected=true]')?.focus();
      return;
    }
    onSubmit({
      pets: choices.map((c, i) => {
        const p = productsOf(view.products, i + 1).find((x) => x.Code === c.code);
        return p
          ? {
              product: { Code: p.Code },
              set_excess: p.FlexyProductsOptions.current_set_excess,
              set_coins: Number(p.FlexyProductsOptions.current_variable_excess),
            }
          : {};
      }),
    });
  }

  function back() {
    // journey.md §4: Back clears the previous pet's choice.
    const previous = current - 1;
    setChoices((all) => all.map((c, i) => (i === previous ? { ...c, code: null } : c)));
    setCurrent(previous);
    setTab(groupsOf(productsOf(view.products, previous + 1)).length > 1 ? 'type' : 'level');
    window.scrollTo({ top: 0 });
  }

  function upsell(p: Product) {
    setChoice({ code: p.Code });
    setUpsellUsed((s) => new Set(s).add(current));
    notify({ kind: 'success', title: 'toast.success.title', body: 'cover.upsell.done' });
    tabsRef.current?.scrollIntoView({ block: 'start' });
    setTab('level');
  }

  const errors: FieldMessage[] = clientError ? [{ field: `pets[${current}].product.Code`, message: clientError }] : [...serverErrors];
  const stepNumber = tabs.indexOf(tab) + 1;

  return (
    <div className="cover" aria-busy={requoting || undefined}>
      <BestBuyBanner view={view} pets={[pet]} copy={copy} />
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
      <ErrorSummary errors={errors} pets={pets} ui={{}} copy={copy} />
      <h2 className="cover__heading" id={headingId}>
        {text(copy, 'cover.heading', { petName })}
      </h2>
      <div ref={tabsRef} className="cover__tabs">
        <p className="cover__step">{text(copy, 'cover.step_of', { x: String(stepNumber), y: String(tabs.length) })}</p>
        <Tabs tabs={tabs} current={tab} copy={copy} onOpen={openTab} labelledBy={headingId} />
      </div>
      <section className="cover__panel" role="tabpanel" id={`cover-panel-${tab}`} aria-labelledby={`cover-tab-${tab}`} tabIndex={0}>
        {tab === 'type' && guide && (
          <CoverGuide
            key={current}
            groups={groups}
            chosen={choice.group}
            copy={copy}
            onGroup={(group) => {
              // journey.md §4: a new cover type clears the level.
              setChoice({ group, code: group === choice.group ? choice.code : null });
              setClientError(null);
            }}
            onContinue={() => setTab('level')}
          />
        )}
        {tab === 'type' && !guide && (
          <TypeTiles products={mine} chosen={choice.group} copy={copy} busy={requoting} onChoose={chooseGroup} onBenefits={() => setBenefitsOpen(true)} />
        )}
        {tab === 'level' && (
          <>
            {groups.length === 1 && String(pet.pet_type) === 'rabbit' && <p className="hint">{text(copy, 'cover.rabbit_note')}</p>}
            <LevelTable
              key={`${current}:${choice.group ?? ''}`}
              products={shownGroup}
              chosen={choice.code}
              copy={copy}
              busy={requoting}
              petName={petName}
              track={current > 0 ? String(pet.original_id ?? current + 1) : null}
              csrf={view.csrf}
              onChoose={(code) => {
                setChoice({ code });
                setClientError(null);
              }}
              onNext={() => openTab('excess')}
            />
          </>
        )}
        {tab === 'excess' && (chosen ?? shownGroup[0]) && (
          <ExcessPanel product={chosen ?? shownGroup[0]} copy={copy} busy={requoting} petName={petName} onChange={requote} />
        )}
      </section>
      {chosen && tab !== 'excess' && !requoting && (
        <div className="claim-terms__row">
          <ClaimTerms product={chosen} copy={copy} />
          <button type="button" className="link-button" onClick={() => openTab('excess')}>
            {text(copy, 'cover.claim_terms.change')}
          </button>
        </div>
      )}
      {chosen && (
        <section ref={included} className="card included" aria-labelledby="included-heading">
          <h2 id="included-heading" className="pet__heading" ref={includedHeading} tabIndex={-1}>
            {text(copy, 'cover.included.heading')}
          </h2>
          <ul className="included__list">
            {chosen.PolicyTerms.filter((t) => t.show).map((t) => (
              <li key={t.desc}>
                <span>{text(copy, t.desc)}</span> <strong>{termValue(copy, t)}</strong>
              </li>
            ))}
          </ul>
          <button type="button" className="link-button" onClick={() => setBenefitsOpen(true)}>
            {text(copy, 'cover.included.link')}
          </button>
        </section>
      )}
      {chosen && !upsellUsed.has(current) && upsells(shownGroup, chosen).length > 0 && (
        <section className="card upsell" aria-labelledby="upsell-heading">
          <h2 id="upsell-heading" className="pet__heading">
            {text(copy, 'cover.upsell.heading')}
          </h2>
          <ul className="upsell__list">
            {upsells(shownGroup, chosen).map((p) => (
              <li key={p.Code}>
                <p>
                  {text(copy, 'cover.upsell.body', {
                    difference: price(fromPence(toPence(p.RecurringMonthly) - toPence(chosen.RecurringMonthly))),
                    limit: amount(String(p.LimitVal)),
                  })}
                </p>
                <button type="button" className="button button--secondary" disabled={requoting} onClick={() => upsell(p)}>
                  {text(copy, 'cover.upsell.choose', { limit: amount(String(p.LimitVal)) })}
                </button>
              </li>
            ))}
          </ul>
        </section>
      )}
      <div className="price-bar" ref={priceBar} role="region" aria-label={text(copy, 'cover.price_bar.label', { petName })}>
        <div className="price-bar__inner">
          <p className="price-bar__price" aria-live="polite">
            {chosen && !requoting ? (
              <>
                <span className="price-bar__monthly">
                  <strong>{price(chosen.RecurringMonthly)}</strong> {text(copy, 'cover.per_month')}
                </span>
                <span className="price-bar__annual">
                  {price(chosen.AnnualPremium)} {text(copy, 'cover.per_year')}
                </span>
              </>
            ) : requoting ? (
              <span className="skeleton" aria-label={text(copy, 'cover.loading')} />
            ) : (
              <span>{text(copy, 'cover.choose_level_hint')}</span>
            )}
          </p>
          <div className="price-bar__actions">
            {current > 0 && (
              <button type="button" className="button button--secondary" disabled={busy || requoting} onClick={back}>
                {text(copy, 'cover.back_pet', { petName: String(pets[current - 1]?.pet_name ?? '') })}
              </button>
            )}
            <button
              type="button"
              className="button"
              disabled={busy || requoting || !choice.code || !seenBenefits}
              aria-describedby={choice.code && !seenBenefits ? 'read-benefits' : undefined}
              onClick={next}
            >
              {busy ? text(copy, 'button.saving') : last ? text(copy, 'cover.continue') : text(copy, 'cover.next_pet', { petName: String(pets[current + 1]?.pet_name ?? '') })}
            </button>
          </div>
          {choice.code && !seenBenefits && (
            // journey.md §4: Continue waits until the benefits block has been in view; this
            // says so, and takes the customer there.
            <button
              type="button"
              id="read-benefits"
              className="link-button price-bar__hint"
              onClick={() => {
                included.current?.scrollIntoView({ block: 'center' });
                includedHeading.current?.focus({ preventScroll: true });
              }}
            >
              {text(copy, 'cover.read_benefits')}
            </button>
          )}
        </div>
      </div>
      {benefitsOpen && (
        <BenefitsModal
          products={shownGroup.length > 0 ? shownGroup : mine}
          copy={copy}
          chosen={choice.code}
          documents={view.documents.find((d) => d.petid === current + 1)}
          onClose={() => setBenefitsOpen(false)}
        />
      )}
    </div>
  );
}

/** An ARIA tab list: arrow keys move between tabs, Home and End to the ends. */
function Tabs({ tabs, current, copy, onOpen, labelledBy }: { tabs: Tab[]; current: Tab; copy: Record<string, string>; onOpen: (t: Tab) => void; labelledBy: string }) {
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  function key(e: React.KeyboardEvent, i: number) {
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? tabs.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    const j = (to + tabs.length) % tabs.length;
    onOpen(tabs[j]);
    refs.current[j]?.focus();
  }
  return (
    <div role="tablist" className="tabs" aria-labelledby={labelledBy}>
      {tabs.map((t, i) => (
        <button
          key={t}
          ref={(el) => {
            refs.current[i] = el;
          }}
          type="button"
          role="tab"
          id={`cover-tab-${t}`}
          aria-selected={t === current}
          aria-controls={`cover-panel-${t}`}
          tabIndex={t === current ? 0 : -1}
          className={`tabs__tab${t === current ? ' tabs__tab--current' : ''}`}
          onClick={() => onOpen(t)}
          onKeyDown={(e) => key(e, i)}
        >
          <span className="tabs__number">{i + 1}</span> {text(copy, `cover.tabs.${t}`)}
        </button>
      ))}
    </div>
  );
}

function TypeTiles({
  products,
  chosen,
  copy,
  busy,
  onChoose,
  onBenefits,
}: {
  products: Product[];
  chosen: Group | null;
  copy: Record<string, string>;
  busy: boolean;
  onChoose: (g: Group) => void;
  onBenefits: () => void;
}) {
  const { price } = useMoney();
  return (
    <ul className="tiles">
      {groupsOf(products).map((g) => {
        const group = inGroup(products, g);
        const cheapest = group.reduce((a, b) => (toPence(b.RecurringMonthly) < toPence(a.RecurringMonthly) ? b : a));
        const key = g.toLowerCase();
        const titleId = `tile-${key}`;
        return (
          <li key={g} className={`tile${chosen === g ? ' tile--chosen' : ''}`} aria-labelledby={titleId}>
            <h3 id={titleId} className="tile__title">
              {text(copy, `cover.type.${key}`)}
            </h3>
            <p>{text(copy, `cover.type.${key}.blurb`)}</p>
            <ul className="tile__points">
              {[1, 2, 3].map((n) => (
                <li key={n}>{text(copy, `cover.type.${key}.usp.${n}`)}</li>
              ))}
            </ul>
            <details className="tile__tip">
              <summary>{text(copy, 'cover.what_it_means')}</summary>
              <p>{text(copy, `cover.type.${key}.tt`)}</p>
            </details>
            <p className="tile__price">{busy ? <span className="skeleton" /> : text(copy, 'cover.from', { price: price(cheapest.RecurringMonthly) })}</p>
            <div className="tile__actions">
              <button type="button" className="button" disabled={busy} aria-pressed={chosen === g} onClick={() => onChoose(g)}>
                {chosen === g ? text(copy, 'cover.selected') : text(copy, 'cover.choose_type')}
                <span className="visually-hidden"> – {text(copy, `cover.type.${key}`)}</span>
              </button>
              <button type="button" className="link-button" onClick={onBenefits}>
                {text(copy, 'cover.view_benefits')}
                <span className="visually-hidden"> – {text(copy, `cover.type.${key}`)}</span>
              </button>
            </div>
          </li>
        );
      })}
    </ul>
  );
}

function beacon(csrf: string, keys: string[]) {
  const body = JSON.stringify({ csrf, locale: 'en-GB', key: keys });
  const blob = new Blob([body], { type: 'application/json' });
  if (navigator.sendBeacon?.('/api/trackViewedProducts', blob)) return;
  void fetch('/api/trackViewedProducts', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body, keepalive: true, credentials: 'same-origin' });
}

function LevelTable({
  products,
  chosen,
  copy,
  busy,
  petName,
  track,
  csrf,
  onChoose,
  onNext,
}: {
  products: Product[];
  chosen: string | null;
  copy: Record<string, string>;
  busy: boolean;
  petName: string;
  /** The pet's original id when its viewed products are tracked (pets other than the first). */
  track: string | null;
  csrf: string;
  onChoose: (code: string) => void;
  onNext: () => void;
}) {
  const { amount, price } = useMoney();
  const columns = useColumns();
  const visible = Math.min(columns, products.length);
  const positions = Math.max(1, products.length - visible + 1);
  const chosenIndex = Math.max(0, products.findIndex((p) => p.Code === chosen));
  const [start, setStart] = useState(() => Math.min(Math.max(0, chosenIndex - Math.floor(visible / 2)), positions - 1));
  const shown = products.slice(start, start + visible);
  const rows = products[0]?.PolicyTerms.filter((t) => t.biline) ?? [];
  // A rating every level shares is said once, not in every column.
  const allRated = products.length > 0 && products.every((p) => p.Rated);

  useEffect(() => {
    // journey.md §7: viewed products by beacon, for pets other than the first.
    if (track) beacon(csrf, shown.map((p) => `${track}_${p.Code}`));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [track, start]);

  useEffect(() => {
    if (start > positions - 1) setStart(positions - 1);
  }, [positions, start]);

  if (products.length === 0) return null;
  return (
    <div className="levels">
      <p className="levels__heading">
        {text(copy, 'cover.level.heading', { petName })}
        {allRated && (
          <>
            {' '}
            <span className="badge">{text(copy, 'cover.rated')}</span>
          </>
        )}
      </p>
      <div className="levels__stepper">
        <button type="button" className="icon-button" aria-label={text(copy, 'cover.level.previous')} disabled={start === 0} onClick={() => setStart(start - 1)}>
          −
        </button>
        <ul className="levels__dots">
          {Array.from({ length: positions }, (_, i) => (
            <li key={i}>
              <button
                type="button"
                className={`dot${i === start ? ' dot--current' : ''}`}
                aria-label={text(copy, 'cover.level.page', { n: String(i + 1) })}
                aria-current={i === start || undefined}
                onClick={() => setStart(i)}
              />
            </li>
          ))}
        </ul>
        <button type="button" className="icon-button" aria-label={text(copy, 'cover.level.next')} disabled={start >= positions - 1} onClick={() => setStart(start + 1)}>
          +
        </button>
      </div>
      <table className="levels__table">
        <caption className="visually-hidden">{text(copy, 'cover.level.heading', { petName })}</caption>
        <thead>
          <tr>
            <td />
            {shown.map((p) => (
              <th scope="col" key={p.Code} className={p.Code === chosen ? 'levels__chosen' : undefined}>
                <span className="levels__limit">{text(copy, 'cover.limit', { limit: amount(String(p.LimitVal)) })}</span>
                {p.Rated && !allRated && <span className="badge levels__badge">{text(copy, 'cover.rated')}</span>}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          <tr>
            <th scope="row">{text(copy, 'cover.monthly')}</th>
            {shown.map((p) => (
              <td key={p.Code} className={p.Code === chosen ? 'levels__chosen' : undefined}>
                {busy ? <span className="skeleton" /> : <strong className="levels__price">{price(p.RecurringMonthly)}</strong>}
              </td>
            ))}
          </tr>
          {rows.map((r) => (
            <tr key={r.desc}>
              <th scope="row">{text(copy, r.desc)}</th>
              {shown.map((p) => {
                const t = p.PolicyTerms.find((x) => x.desc === r.desc);
                return (
                  <td key={p.Code} className={p.Code === chosen ? 'levels__chosen' : undefined}>
                    {t ? termValue(copy, t) : text(copy, 'benefit.not_included')}
                  </td>
                );
              })}
            </tr>
          ))}
          <tr>
            <td />
            {shown.map((p) => (
              <td key={p.Code} className={p.Code === chosen ? 'levels__chosen' : undefined}>
                <button type="button" className={`button${p.Code === chosen ? '' : ' button--secondary'}`} aria-pressed={p.Code === chosen} disabled={busy} onClick={() => onChoose(p.Code)}>
                  {p.Code === chosen ? text(copy, 'cover.selected') : text(copy, 'cover.select')}
                  <span className="visually-hidden"> – {amount(String(p.LimitVal))}</span>
                </button>
              </td>
            ))}
          </tr>
        </tbody>
      </table>
      <div className="actions">
        <button type="button" className="button button--secondary" disabled={!chosen} onClick={onNext}>
          {text(copy, 'cover.tabs.excess')}
        </button>
      </div>
    </div>
  );
}

function ExcessPanel({
  product,
  copy,
  busy,
  petName,
  onChange,
}: {
  product: Product;
  copy: Record<string, string>;
  busy: boolean;
  petName: string;
  onChange: (fields: { set_excess?: string; set_coins?: string }) => void;
}) {
  const { amount } = useMoney();
  const { setExcess, coins } = excessOptions(product);
  const current = product.FlexyProductsOptions;
  const rest = fromPence(toPence(product.ClaimExample.Bill) - toPence(product.Excess));
  return (
    <div className="excess">
      <p className="levels__heading">{text(copy, 'cover.excess.heading', { petName })}</p>
      {setExcess.length > 1 ? (
        <fieldset className="field choice">
          <legend className="field__label">{text(copy, 'cover.excess.set')}</legend>
          <p className="field__help">{text(copy, 'cover.excess.set.hint')}</p>
          <div className="choice__options choice__options--inline">
            {setExcess.map((e) => (
              <div className="choice__option" key={e}>
                <input type="radio" id={`set-excess-${e}`} name="set-excess" value={e} checked={current.current_set_excess === e} disabled={busy} onChange={() => onChange({ set_excess: e })} />
                <label htmlFor={`set-excess-${e}`}>{amount(e)}</label>
              </div>
            ))}
          </div>
        </fieldset>
      ) : (
        <p>
          {text(copy, 'cover.excess.set')}: <strong>{amount(product.Excess)}</strong>
        </p>
      )}
      {coins.length === 1 && percentOf(coins[0]) !== '0' && (
        <p>
          {text(copy, 'cover.excess.coins')}: <strong>{text(copy, 'cover.excess.coins.option', { percent: percentOf(coins[0]) })}</strong>
        </p>
      )}
      {coins.length > 1 && (
        <fieldset className="field choice">
          <legend className="field__label">{text(copy, 'cover.excess.coins')}</legend>
          <p className="field__help">{text(copy, 'cover.excess.coins.hint')}</p>
          <div className="choice__options choice__options--inline">
            {coins.map((c) => (
              <div className="choice__option" key={c}>
                <input type="radio" id={`coins-${c}`} name="coins" value={c} checked={current.current_variable_excess === c} disabled={busy} onChange={() => onChange({ set_coins: c })} />
                <label htmlFor={`coins-${c}`}>{percentOf(c) === '0' ? text(copy, 'cover.excess.coins.none') : text(copy, 'cover.excess.coins.option', { percent: percentOf(c) })}</label>
              </div>
            ))}
          </div>
        </fieldset>
      )}
      <section className="panel panel--info claim-example" aria-labelledby="claim-example-heading">
        <h3 id="claim-example-heading" className="claim-example__heading">
          {text(copy, 'cover.claim_example.heading')}
        </h3>
        {busy ? (
          <p>
            <span className="skeleton" aria-label={text(copy, 'cover.loading')} />
          </p>
        ) : (
          <p>
            {text(copy, 'cover.claim_example.body', {
              bill: amount(product.ClaimExample.Bill),
              customer: amount(product.ClaimExample.Customer),
              excess: amount(product.Excess),
              percent: product.coins,
              rest: amount(rest),
              insurer: amount(product.ClaimExample.Insurer),
            })}
          </p>
        )}
        {product.ClaimExample.Warnings.map((w) => (
          <p key={w} className="claim-example__warning">
            {text(copy, w)}
          </p>
        ))}
      </section>
    </div>
  );
}

/** The benefits table (journey.md §2): a tab per vet fee limit. */
export function BenefitsModal({
  products,
  copy,
  chosen,
  documents,
  onClose,
}: {
  products: Product[];
  copy: Record<string, string>;
  chosen: string | null;
  documents: PetDocuments | undefined;
  onClose: () => void;
}) {
  const { amount } = useMoney();
  const [index, setIndex] = useState(() => Math.max(0, products.findIndex((p) => p.Code === chosen)));
  const p = products[index] ?? products[0];
  const refs = useRef<Array<HTMLButtonElement | null>>([]);
  if (!p) return null;
  return (
    <Modal titleId="benefits-title" title={text(copy, 'cover.benefits.heading')} onCancel={onClose}>
      <div role="tablist" className="tabs tabs--small" aria-label={text(copy, 'cover.benefits.heading')}>
        {products.map((x, i) => (
          <button
            key={x.Code}
            ref={(el) => {
              refs.current[i] = el;
            }}
            type="button"
            role="tab"
            id={`benefits-tab-${x.Code}`}
            aria-selected={i === index}
            aria-controls="benefits-panel"
            tabIndex={i === index ? 0 : -1}
            className={`tabs__tab${i === index ? ' tabs__tab--current' : ''}`}
            onClick={() => setIndex(i)}
            onKeyDown={(e) => {
              const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : null;
              if (to === null) return;
              e.preventDefault();
              const j = (to + products.length) % products.length;
              setIndex(j);
              refs.current[j]?.focus();
            }}
          >
            {coverTypeName(copy, x.Gid)} {amount(String(x.LimitVal))}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="benefits-panel" aria-labelledby={`benefits-tab-${p.Code}`} tabIndex={0}>
        <table className="benefits">
          <caption className="visually-hidden">
            {coverTypeName(copy, p.Gid)} {amount(String(p.LimitVal))}
          </caption>
          <tbody>
            {p.PolicyTerms.map((t) => (
              <tr key={t.desc}>
                <th scope="row">
                  {text(copy, t.desc)}
                  <span className="benefits__tip">{text(copy, t.tt)}</span>
                </th>
                <td>{termValue(copy, t)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {(documents?.by_group[p.Gid] ?? []).length > 0 && (
        <>
          <h3 className="documents__pet">{text(copy, 'cover.benefits.documents')}</h3>
          <DocumentLinks documents={documents?.by_group[p.Gid] ?? []} copy={copy} suffix={coverTypeName(copy, p.Gid)} />
        </>
      )}
      <div className="dialog__actions">
        <button type="button" className="button" onClick={onClose}>
          {text(copy, 'button.close')}
        </button>
      </div>
    </Modal>
  );
}
