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
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { BestBuyBanner } from '@/features/shell/BestBuyBanner';
import { text } from '@/shared/copy';
import type { FieldMessage, Product, ViewData } from '@/shared/types';
import { markViewed } from '@/shared/experiments';
import { BenefitsModal } from '@/features/products/BenefitsModal';
import { ClaimTerms } from '@/features/products/ClaimTerms';
import { type Group, defaultProduct, groupsOf, initialGroup, inGroup, productsOf, upsells } from '@/features/products/cover';
import { CoverGuide } from './CoverGuide';
import { ExcessPanel } from './ExcessPanel';
import { useBarHeight, useSeen } from './hooks';
import { IncludedCard } from './IncludedCard';
import { LevelTable } from './LevelTable';
import { PriceBar } from './PriceBar';
import { QuoteFacts } from './QuoteFacts';
import { type Tab, Tabs } from './Tabs';
import { TypeTiles } from './TypeTiles';
import { UpsellCard } from './UpsellCard';
import '@/features/products/cover.css';

interface Choice {
  group: Group | null;
  code: string | null;
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
  const pets = view.pets;
  // A pet added from review (journey.md §4 Add another pet) is the first without a cover: the page
  // opens on it, the others keep theirs (Back reaches them).
  const [current, setCurrent] = useState(() => {
    const first = pets.findIndex((p) => !(p.product as { RecurringMonthly?: string } | undefined)?.RecurringMonthly);
    return first > 0 ? first : 0;
  });
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
  // The pets whose guide questions the customer has answered (until then, they are the page's suggestion).
  const [guided, setGuided] = useState<ReadonlySet<number>>(new Set());
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
      <QuoteFacts view={view} copy={copy} />
      <ErrorSummary errors={errors} pets={pets} ui={{}} copy={copy} />
      {current > 0 && (
        <button type="button" className="link-button cover__back" disabled={busy || requoting} onClick={back}>
          {text(copy, 'cover.back_pet', { petName: String(pets[current - 1]?.pet_name ?? '') })}
        </button>
      )}
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
            preAnswered={!guided.has(current) && !(pet.product as { RecurringMonthly?: string } | undefined)?.RecurringMonthly}
            copy={copy}
            onGroup={(group) => {
              setGuided((g) => new Set(g).add(current));
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
          <ExcessPanel product={chosen ?? shownGroup[0]} copy={copy} busy={requoting} petName={petName} species={String(pet.pet_type ?? '')} onChange={requote} />
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
      {/* After the cover choice, so that every brand's first phone screen shows a cover with its price. */}
      <BestBuyBanner view={view} pets={[pet]} copy={copy} />
      {chosen && (
        <IncludedCard product={chosen} copy={copy} sectionRef={included} headingRef={includedHeading} onBenefits={() => setBenefitsOpen(true)} />
      )}
      {chosen && !upsellUsed.has(current) && upsells(shownGroup, chosen).length > 0 && (
        <UpsellCard offers={upsells(shownGroup, chosen)} chosen={chosen} copy={copy} busy={requoting} onChoose={upsell} />
      )}
      <PriceBar
        barRef={priceBar}
        copy={copy}
        petName={petName}
        chosen={chosen}
        household={{
          chosen: choices.map((c, i) => productsOf(view.products, i + 1).find((p) => p.Code === c.code)),
          names: pets.map((p) => String(p.pet_name ?? '')),
        }}
        busy={busy}
        requoting={requoting}
        nextPet={last ? null : String(pets[current + 1]?.pet_name ?? '')}
        canContinue={Boolean(choice.code)}
        seenBenefits={seenBenefits}
        onNext={next}
        onReadBenefits={() => {
          included.current?.scrollIntoView({ block: 'center' });
          includedHeading.current?.focus({ preventScroll: true });
        }}
      />
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

