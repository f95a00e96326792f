/**
 * The cover select page (journey.md §2 Cover select; §4 Cover selection; §9): for each pet in
 * turn, tabs Cover type, Cover level and Excess with "Step x of y"; the cover type tiles; the
 * cover level table as a carousel (3 columns small, 5 large, breakpoint 579 px) with stepper and
 * dots; the excess choosers (hidden when there is only one option), each change re-quoting the
 * pet through /api/getFlexProducts; the claim example; "What's included?" with the benefits
 * table modal; the upsell; the sticky price bar with Next / Back / Continue. Every price and
 * every option comes from the server's products; this page only chooses among them.
 */
import { ErrorSummary } from '@/features/form/ErrorSummary';
import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { BestBuyBanner } from '@/features/shell/BestBuyBanner';
import { text } from '@/shared/copy';
import type { FieldMessage, ViewData } from '@/shared/types';
import { BenefitsModal } from '@/features/products/BenefitsModal';
import { ClaimTerms } from '@/features/products/ClaimTerms';
import { productsOf, upsells } from '@/features/products/cover';
import { CoverGuide } from './CoverGuide';
import { ExcessPanel } from './ExcessPanel';
import { IncludedCard } from './IncludedCard';
import { LevelTable } from './LevelTable';
import { PriceBar } from './PriceBar';
import { QuoteFacts } from './QuoteFacts';
import { Tabs } from './Tabs';
import { TypeTiles } from './TypeTiles';
import { UpsellCard } from './UpsellCard';
import '@/features/products/cover.css';
import { useCoverPage } from './useCoverPage';


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
  const {
    pets, current, back, petName, headingId, tabsRef, stepNumber, tabs, tab, setTab, openTab, guide, groups,
    choice, guided, setGuided, pet, setChoice, setClientError, mine, chooseGroup, benefitsOpen, setBenefitsOpen,
    shownGroup, chosen, requote, included, includedHeading, upsellUsed, upsell, priceBar, choices, last,
    seenBenefits, next, errors,
  } = useCoverPage({ view, copy, serverErrors, onSubmit, onChange, notify });

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

