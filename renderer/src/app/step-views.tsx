/**
 * What draws each view a step may name: one entry per view in the definitions' manifest
 * (journeys/views.json, whose names `ViewName` is generated from), so a view added there without
 * the code that draws it fails the type check rather than reaching a customer as a blank page.
 * Each returns null when the view data lacks what it draws from, and the page says so instead.
 */
import type { ReactNode } from 'react';

import { FormStep } from '@/features/form/FormStep';
import type { EditRequest, JourneyEvent, Notice } from '@/features/journey/journey-machine';
import type { ViewName } from '@/generated/views';
import { text } from '@/shared/copy';
import type { FieldMessage, ViewData } from '@/shared/types';
import * as pages from './pages';

/** What a step's page is given: its view data, the page's state, and what it may ask for. */
export interface StepContext {
  view: ViewData;
  copy: Record<string, string>;
  /** Remounts a page when the view data is replaced (`viewVersion`) or its form is reset (`formVersion`). */
  viewKey: string;
  formKey: string;
  is: (state: 'submitting' | 'removing' | 'editing' | 'refreshing' | 'adding' | 'savingPets' | 'buying' | 'authenticating') => boolean;
  /** A pet was just added on the page shown again. */
  petAdded: boolean;
  serverErrors: FieldMessage[];
  submissions: number;
  editErrors: FieldMessage[];
  editSubmissions: number;
  send: (event: JourneyEvent) => void;
  submit: (answers: Record<string, unknown>) => void;
  buy: () => void;
  open: (path: string) => void;
  /** Moves on by the page's own button (counted as the step's submission), then opens `path`. */
  moveOn: (path?: string) => void;
}

type Draw = (c: StepContext) => ReactNode;

const edit = (c: StepContext) => (request: EditRequest) => c.send({ type: 'edit.submit', ...request });
const notify = (c: StepContext) => (n: Notice) => c.send({ type: 'notice.show', ...n });
const refresh = (c: StepContext) => (notice?: Notice) => c.send({ type: 'page.refresh', notice });

/** The views journeys name, each drawn by its page; `pending` by the frame's own placeholder. */
export const stepViews: Record<ViewName, Draw> = {
  form: (c) =>
    c.view.questions && (
      <FormStep
        key={c.formKey}
        questions={c.view.questions}
        copy={c.copy}
        serverErrors={c.serverErrors}
        submissions={c.submissions}
        busy={c.is('submitting') || c.is('removing') || c.is('savingPets') || c.is('adding')}
        submitLabel={text(c.copy, 'button.next')}
        onSubmit={c.submit}
        onSaveAndAddPet={(answers) => c.send({ type: 'pets.save_and_add', answers })}
        draftKey={`${c.view.qidu}.${c.view.step.id}`}
        petAdded={c.petAdded}
        storedPets={c.view.pets.length}
        onRemoveStoredPet={(id) => c.send({ type: 'pet.remove', id })}
        onNotice={notify(c)}
        beforeActions={
          // The codes panel, where the step offers any of the modals the form view reads.
          Object.keys(c.view.edits).length > 0 ? (
            <pages.Codes.Component
              key={c.viewKey}
              view={c.view}
              copy={c.copy}
              busy={c.is('editing') || c.is('refreshing')}
              editErrors={c.editErrors}
              editSubmissions={c.editSubmissions}
              onEdit={edit(c)}
              notify={notify(c)}
              onRefresh={refresh(c)}
            />
          ) : null
        }
      />
    ),
  pending: () => null,
  assumptions: (c) =>
    c.view.questions && (
      <pages.Assumptions.Component
        key={c.viewKey}
        view={c.view}
        copy={c.copy}
        serverErrors={c.serverErrors}
        submissions={c.submissions}
        editErrors={c.editErrors}
        editSubmissions={c.editSubmissions}
        busy={c.is('submitting') || c.is('removing') || c.is('editing') || c.is('refreshing')}
        onSubmit={c.submit}
        onEdit={edit(c)}
        onRemovePet={(id) => c.send({ type: 'pet.remove', id })}
      />
    ),
  choose_policy: (c) =>
    c.view.questions && (
      <pages.ChoosePolicy.Component
        key={c.formKey}
        view={c.view}
        copy={c.copy}
        busy={c.is('submitting')}
        requoting={c.is('editing') || c.is('refreshing')}
        serverErrors={c.serverErrors}
        onSubmit={c.submit}
        onChange={edit(c)}
        notify={notify(c)}
      />
    ),
  review: (c) => (
    <pages.Review.Component
      key={c.viewKey}
      view={c.view}
      copy={c.copy}
      busy={c.is('editing') || c.is('refreshing') || c.is('removing') || c.is('adding')}
      editErrors={c.editErrors}
      editSubmissions={c.editSubmissions}
      onEdit={edit(c)}
      onRemovePet={(id) => c.send({ type: 'pet.remove', id })}
      onAddPet={() => c.send({ type: 'pet.add' })}
      onOpen={c.open}
      onContinue={(path) => c.moveOn(path)}
      notify={notify(c)}
      onRefresh={refresh(c)}
    />
  ),
  payment: (c) =>
    c.view.questions && (
      <pages.Payment.Component
        key={c.formKey}
        view={c.view}
        copy={c.copy}
        busy={c.is('submitting')}
        serverErrors={c.serverErrors}
        submissions={c.submissions}
        onSubmit={c.submit}
        onOpen={c.open}
        onNotice={notify(c)}
      />
    ),
  payment_confirmation: (c) =>
    c.view.bank_details && (
      <pages.PaymentConfirmation.Component view={c.view} copy={c.copy} busy={c.is('buying') || c.is('authenticating')} serverErrors={c.serverErrors} onOpen={c.open} onBuy={c.buy} />
    ),
  card_confirmation: (c) => (
    <pages.CardConfirmation.Component view={c.view} copy={c.copy} busy={c.is('buying') || c.is('authenticating')} serverErrors={c.serverErrors} onOpen={c.open} onBuy={c.buy} />
  ),
  confirmation: (c) =>
    c.view.purchase && <pages.Confirmation.Component view={c.view} copy={c.copy} onRefresh={() => c.send({ type: 'page.refresh' })} onNotice={notify(c)} />,
  rescue_confirmation: (c) =>
    c.view.rescue && (
      <pages.RescueConfirmation.Component
        key={c.viewKey}
        view={c.view}
        copy={c.copy}
        onOpen={c.open}
        onActivated={() => c.moveOn()}
      />
    ),
};

/** The pages outside the journeys (the site's own pages and the retrieve-quote page). */
const siteViews: Record<'static_page' | 'retrieve_quote', Draw> = {
  static_page: (c) => c.view.page && <pages.Static.Component page={c.view.page} shell={c.view.shell} copy={c.copy} onOpen={c.open} />,
  retrieve_quote: (c) => (
    <pages.RetrieveQuote.Component
      view={c.view}
      copy={c.copy}
      onRetrieved={(path, expired) => {
        if (expired) c.send({ type: 'notice.show', kind: 'info', title: 'toast.success.title', body: 'retrieve.expired' });
        c.open(path);
      }}
    />
  ),
};

/** The step's page, or null when its view data lacks what the page draws from. */
export function drawStep(c: StepContext): ReactNode {
  const name = c.view.step.view;
  const draw = name === 'static_page' || name === 'retrieve_quote' ? siteViews[name] : stepViews[name];
  return draw(c) || null;
}
