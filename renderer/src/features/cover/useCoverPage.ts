/**
 * The cover select page's state and actions (journey.md §4 Cover selection): each pet's chosen
 * cover type and level, the pet and tab shown, the re-quote of a pet's excess, the upsell, and
 * Next / Back / Continue.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';

import type { EditRequest, Notice } from '@/features/journey/journey-machine';
import { type Group, defaultProduct, groupsOf, initialGroup, inGroup, productsOf } from '@/features/products/cover';
import { text } from '@/shared/copy';
import { markViewed } from '@/shared/experiments';
import type { FieldMessage, Product, ViewData } from '@/shared/types';
import { useBarHeight, useSeen } from './hooks';
import type { Tab } from './Tabs';

interface Choice {
  group: Group | null;
  code: string | null;
}

export function useCoverPage({
  view,
  copy,
  serverErrors,
  onSubmit,
  onChange,
  notify,
}: {
  view: ViewData;
  copy: Record<string, string>;
  serverErrors: readonly FieldMessage[];
  onSubmit: (answers: Record<string, unknown>) => void;
  onChange: (request: EditRequest) => void;
  notify: (notice: Notice) => void;
}) {
  const pets = view.pets;
  // A pet added from review (journey.md §4 Add another pet) is the first without a cover: the page
  // opens on it, the others keep theirs (Back reaches them).
  const [current, setCurrent] = useState(() => firstUncovered(pets));
  const [choices, setChoices] = useState<Choice[]>(() => initialChoices(view));
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
    const base = chosen ?? shownGroup[0];
    if (base) onChange(requoteRequest(base, current, fields));
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
    onSubmit(chosenAnswers(view, choices));
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

  return {
    pets,
    current,
    back,
    petName,
    headingId,
    tabsRef,
    stepNumber,
    tabs,
    tab,
    setTab,
    openTab,
    guide,
    groups,
    choice,
    guided,
    setGuided,
    pet,
    setChoice,
    setClientError,
    mine,
    chooseGroup,
    benefitsOpen,
    setBenefitsOpen,
    shownGroup,
    chosen,
    requote,
    included,
    includedHeading,
    upsellUsed,
    upsell,
    priceBar,
    choices,
    last,
    seenBenefits,
    next,
    errors,
  };
}

/** The pet the page opens on: one added from review is the first without a cover (journey.md §4 Add another pet); the others keep theirs. */
function firstUncovered(pets: ViewData['pets']): number {
  const first = pets.findIndex((p) => !(p.product as { RecurringMonthly?: string } | undefined)?.RecurringMonthly);
  return first > 0 ? first : 0;
}

/** Each pet's cover type and level to begin with: the one it has, or the page's suggestion. */
function initialChoices(view: ViewData): Choice[] {
  return view.pets.map((pet, i) => {
    const mine = productsOf(view.products, i + 1);
    const stored = (pet.product as { Code?: string; RecurringMonthly?: string } | undefined) ?? undefined;
    const storedCode = stored?.RecurringMonthly ? (stored.Code ?? null) : null;
    const group = initialGroup(mine, String(pet.pet_type ?? ''), storedCode);
    const code = group ? (defaultProduct(inGroup(mine, group), storedCode)?.Code ?? null) : null;
    return { group, code };
  });
}

/** A pet re-quoted with a new excess or claim contribution through /api/getFlexProducts. */
function requoteRequest(base: Product, current: number, fields: { set_excess?: string; set_coins?: string }): EditRequest {
  return {
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
  };
}

/** What Continue submits: each pet's chosen product with its excess and claim contribution. */
function chosenAnswers(view: ViewData, choices: Choice[]): Record<string, unknown> {
  return {
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
  };
}
