/** The journey: header, step bar and the current step, driven by the journey machine. */
import { useMachine } from '@xstate/react';
import { useCallback, useEffect, useMemo, useRef } from 'react';

import { drawStep } from './step-views';
import { resetQuote, setLanguage } from '@/features/journey/api';
import { journeyMachine } from '@/features/journey/journey-machine';
import { CookieBanner } from '@/features/shell/CookieBanner';
import { Footer, Header, UspBar } from '@/features/shell/Frame';
import { InactivityTimer } from '@/features/shell/InactivityTimer';
import { PendingStep } from '@/features/shell/PendingStep';
import { StepBar } from '@/features/shell/StepBar';
import { StepBoundary } from '@/features/shell/StepBoundary';
import { Toast } from '@/features/shell/Toast';
import { useConsent } from '@/features/shell/use-consent';
import { pageView, push, purchaseOnce, submission, transactionDetails } from '@/shared/analytics';
import { readBoot } from '@/shared/boot';
import { currentChoice } from '@/shared/consent';
import { text } from '@/shared/copy';
import { MoneyContext, moneyFormat } from '@/shared/money';
import type { ViewData } from '@/shared/types';

/** The page asked for, and the card payment the browser came back with from the customer's bank (`?payment_intent=`). */
function cameBack(location: Location): { path: string; returned: string | null } {
  const query = new URLSearchParams(location.search);
  const returned = query.get('payment_intent');
  for (const name of ['payment_intent', 'payment_intent_client_secret', 'redirect_status']) query.delete(name);
  const rest = query.toString();
  const path = location.pathname + (rest ? `?${rest}` : '');
  // The address bar keeps the page, not the provider's query.
  if (returned !== null) window.history.replaceState(null, '', path + location.hash);
  return { path, returned: returned && /^[A-Za-z0-9_]{1,255}$/.test(returned) ? returned : null };
}

/**
 * owner-payment.md §4 Analytics: a page view for each page shown; a submission event for the
 * page the customer moved on from; on the confirmation, transactionDetails and (once only) the
 * purchase. Answers the step the customer last moved on from by its own button (a submit,
 * Continue, Buy), which the page's actions set; a step left by the step bar or the browser's
 * Back is no submission.
 */
function useStepAnalytics(view: ViewData | null) {
  const stepId = view?.step.id;
  const shownStep = useRef<string | null>(null);
  const movedOnFrom = useRef<string | null>(null);
  useEffect(() => {
    if (!view) return;
    const left = shownStep.current;
    shownStep.current = view.step.id;
    if (left === view.step.id) return;
    if (left && movedOnFrom.current === left) push(submission(left, view));
    movedOnFrom.current = null;
    push(pageView(view));
    if (view.purchase && view.step.view === 'confirmation') {
      push(submission('confirmation', view));
      push(transactionDetails(view));
      // Remembering that the purchase was counted is storage for analytics: only with consent.
      if (currentChoice() === 'granted') push(purchaseOnce(view, window.localStorage));
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stepId]);
  return movedOnFrom;
}

/** The skip link: straight to the page's content, without a history entry. */
function SkipLink({ copy }: { copy: Record<string, string> }) {
  return (
    <a
      className="skip-link"
      href="#main"
      onClick={(e) => {
        e.preventDefault();
        document.getElementById('main')?.focus();
      }}
    >
      {text(copy, 'app.skip_link')}
    </a>
  );
}

/** A page that could not be shown: not found, with the way to a new quote; or failed, with Try again. */
function FailedPage({
  status,
  copy,
  onOpen,
  onRetry,
}: {
  status: number | null | undefined;
  copy: Record<string, string>;
  onOpen: (path: string) => void;
  onRetry: () => void;
}) {
  if (status === 404) {
    return (
      <div className="failed">
        <h1 className="page-title">{text(copy, 'page.not_found.title')}</h1>
        <p>{text(copy, 'page.not_found.body')}</p>
        <p>
          <a href="/quote" onClick={(e) => { e.preventDefault(); onOpen('/quote'); }}>
            {text(copy, 'button.start_quote')}
          </a>
        </p>
      </div>
    );
  }
  return (
    <div className="failed" role="alert">
      <h1 className="page-title">{text(copy, 'toast.generic.title')}</h1>
      <p>{text(copy, 'toast.generic.body')}</p>
      <button type="button" className="button" onClick={onRetry}>
        {text(copy, 'button.try_again')}
      </button>
    </div>
  );
}

export function App() {
  const [state, send] = useMachine(journeyMachine, {
    // The first load keeps the query: a brand asked for with ?brand= (journey.md §1); the card
    // provider's return from the customer's bank (3-D Secure) is the purchase's, not the page's.
    input: useMemo(() => cameBack(window.location), []),
  });
  const { view, failure, failureStatus, serverErrors, submissions, viewVersion, formVersion, notice, editErrors, editSubmissions, petAdded } =
    state.context;
  const boot = useMemo(() => readBoot(), []);
  const heading = useRef<HTMLHeadingElement>(null);
  const stepId = view?.step.id;
  // The path of the page on screen, for telling Back from a #fragment change.
  const shownPath = useRef<string | null>(null);
  shownPath.current = view?.step.path ?? null;

  useEffect(() => {
    // Back and Forward open the page at the new path; a change of the #fragment alone (an error
    // summary's links) is no new page.
    const onPop = () => {
      if (window.location.pathname === shownPath.current) return;
      send({ type: 'page.open', path: window.location.pathname });
    };
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [send]);

  const shell = view?.shell ?? boot.shell;
  // The cookie choice first: the data layer follows it.
  const consent = useConsent(shell);

  const movedOnFrom = useStepAnalytics(view);

  // A new step: its title names the page, and focus starts at its heading.
  useEffect(() => {
    if (!view) return;
    document.title = `${view.step.title} – ${text(view.copy, 'app.brand')}`;
    if (viewVersion > 1) heading.current?.focus();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [stepId]);

  const closeToast = useCallback(() => send({ type: 'toast.dismiss' }), [send]);
  const submit = useCallback(
    (answers: Record<string, unknown>) => {
      movedOnFrom.current = stepId ?? null;
      send({ type: 'step.submit', answers });
    },
    [send, stepId, movedOnFrom],
  );
  const buy = useCallback(() => {
    movedOnFrom.current = stepId ?? null;
    send({ type: 'quote.buy' });
  }, [send, stepId, movedOnFrom]);
  const open = useCallback((path: string) => {
    window.history.pushState(null, '', path);
    send({ type: 'page.open', path });
  }, [send]);
  // A page's own way on that is not a form's submit (review's Continue, the rescue cover's
  // activation): counted as the step's submission, then the next page, or this one again.
  const moveOn = useCallback(
    (path?: string) => {
      movedOnFrom.current = stepId ?? null;
      if (path) open(path);
      else send({ type: 'page.refresh' });
    },
    [open, send, stepId, movedOnFrom],
  );

  const copy = view?.copy ?? boot.copy;
  const language = view?.language ?? boot.language;
  // owner-payment.md §9 Currency: the brand's currency, written for the page's language.
  const money = useMemo(() => moneyFormat(shell?.currency, language), [shell?.currency, language]);
  const csrf = view?.csrf;
  const chooseLanguage = useCallback(
    async (chosen: string) => {
      if (!csrf) return;
      const result = await setLanguage(chosen, csrf);
      // The whole page is drawn again in the new language: its title, its lang and every word.
      if (result.kind === 'ok') window.location.reload();
      else send({ type: 'notice.show', kind: 'error', title: 'toast.generic.title', body: 'toast.generic.body' });
    },
    [csrf, send],
  );
  return (
    <MoneyContext.Provider value={money}>
      {shell && consent.mode && (
        <CookieBanner shell={shell} copy={copy} mode={consent.mode} choice={consent.choice} onChoose={consent.choose} onHide={consent.hide} onOpen={open} />
      )}
      <SkipLink copy={copy} />
      <Header shell={shell} copy={copy} language={language} onLanguage={csrf ? chooseLanguage : undefined} />
      {view && !state.matches('failed') && <StepBar items={view.step_bar} copy={copy} onOpen={open} />}
      {/* The selling points are for quotes; the free rehoming cover sells nothing. */}
      {view && !state.matches('failed') && view.step_bar.length > 0 && view.flow !== 'rehoming' && !['confirmation', 'payment_confirmation', 'card_confirmation'].includes(view.step.view) && (
        <UspBar copy={copy} />
      )}
      <main id="main" className="main" tabIndex={-1}>
        {state.matches('loading') && !view && (
          <p className="loading" role="status">
            {text(copy, 'page.loading')}
          </p>
        )}
        {state.matches('failed') && <FailedPage status={failureStatus} copy={copy} onOpen={open} onRetry={() => send({ type: 'page.retry' })} />}
        {view && !state.matches('failed') && (
          <StepBoundary key={view.step.id} view={view} copy={copy}>
            <h1 ref={heading} tabIndex={-1} className="page-title">
              {view.step.title}
            </h1>
            {view.step.blocks.map((b) => (
              <p className="block" role="alert" key={b.id}>
                {b.message}
              </p>
            ))}
            {view.channel === 'direct' && !view.flow && view.step.bar_number === 1 && !view.pets.some((p) => p.pet_name) && (
              // Where a returning customer starts again (a quote with no pet yet): the way to the quote they saved.
              <p className="retrieve-prompt">
                {text(copy, 'retrieve.prompt')} <a href="/quote/retrieve-quote">{text(copy, 'retrieve.link')}</a>
              </p>
            )}
            {drawStep({
              view,
              copy,
              viewKey: `${view.step.id}:${viewVersion}`,
              formKey: `${view.step.id}:${formVersion}`,
              is: (s) => state.matches(s),
              petAdded,
              serverErrors,
              submissions,
              editErrors,
              editSubmissions,
              send,
              submit,
              buy,
              open,
              moveOn,
            }) ?? <PendingStep view={view} />}
          </StepBoundary>
        )}
      </main>
      <Footer shell={shell} copy={copy} onOpen={open} onCookieSettings={consent.openSettings} />
      {view && (
        <InactivityTimer
          warningMs={view.timeouts.warning_ms}
          resetMs={view.timeouts.reset_ms}
          copy={copy}
          savedAs={view.kept_on_reset ? view.qidu : null}
          onReset={() => resetQuote(view.csrf, `/quote?brand=${encodeURIComponent(view.brand)}`)}
        />
      )}
      {notice && view && (
        <Toast kind={notice.kind} title={text(copy, notice.title)} content={text(copy, notice.body)} closeLabel={text(copy, 'toast.close')} onClose={closeToast} />
      )}
      {failure && view && !state.matches('failed') && (
        <Toast
          title={text(copy, 'toast.generic.title')}
          // A refusal the server words for the customer (too fast, 429; the quote changed
          // elsewhere or its history is full, 409) says what it is; anything else is generic.
          content={failureStatus === 429 || failureStatus === 409 ? failure : text(copy, 'toast.generic.body')}
          closeLabel={text(copy, 'toast.close')}
          onClose={closeToast}
        />
      )}
    </MoneyContext.Provider>
  );
}
