/**
 * A card provider's own card fields: where the provider draws the card's number,
 * expiry and security code itself (Stripe's card element, in a frame of Stripe's), the card
 * number goes from that frame to the provider and never through this page. The rest of the card
 * form (the name on the card, the billing address) is the card question set's, drawn as any
 * form; the fields the set marks `providerField` are left to the provider.
 *
 * The provider's script is loaded only when a card payer reaches this form, from the address
 * the server names (the Content-Security-Policy allows that origin and no other).
 */
import { useEffect, useId, useRef, useState, type MutableRefObject } from 'react';

import { text } from '@/shared/copy';
import type { QuestionsView } from '@/shared/types';

interface ProviderError {
  type?: string;
  code?: string;
  message?: string;
}
interface CardElement {
  mount(target: HTMLElement): void;
  on(event: 'change', listener: (e: { complete: boolean; empty: boolean; error?: ProviderError }) => void): void;
  destroy(): void;
}
interface StripeClient {
  elements(options: { locale: string }): { create(type: 'card'): CardElement };
  createPaymentMethod(request: { type: 'card'; card: CardElement; billing_details: Record<string, unknown> }): Promise<{ paymentMethod?: { id: string }; error?: ProviderError }>;
}
type StripeFactory = (key: string) => StripeClient;

const scripts = new Map<string, Promise<StripeFactory>>();

/** Loads the provider's script once per address. */
function loadProvider(url: string): Promise<StripeFactory> {
  let loading = scripts.get(url);
  if (!loading) {
    loading = new Promise<StripeFactory>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.onload = () => {
        const factory = (window as unknown as { Stripe?: StripeFactory }).Stripe;
        if (factory) resolve(factory);
        else reject(new Error('the card provider did not load'));
      };
      script.onerror = () => {
        scripts.delete(url);
        reject(new Error('the card provider could not be reached'));
      };
      document.head.appendChild(script);
    });
    scripts.set(url, loading);
  }
  return loading;
}

type UiNode = Record<string, unknown>;
type SchemaNode = { properties?: Record<string, SchemaNode>; required?: string[]; allOf?: unknown };

/**
 * Takes out, at every depth, the fields whose UI hints mark them `providerField` (the set's own
 * declaration of what the provider draws): from their object's properties, its required list
 * and its order. The conditions of an object that had such a field are the provider's to check.
 */
function dropMarked(schema: SchemaNode | undefined, ui: UiNode): UiNode {
  const theirs = Object.keys(ui).filter((name) => {
    const options = (ui[name] as { 'ui:options'?: { providerField?: unknown } } | undefined)?.['ui:options'];
    return !name.startsWith('ui:') && typeof options?.providerField === 'string';
  });
  const out: UiNode = { ...ui };
  for (const [name, child] of Object.entries(ui)) {
    if (name.startsWith('ui:') || theirs.includes(name) || typeof child !== 'object' || child === null) continue;
    out[name] = dropMarked(schema?.properties?.[name], child as UiNode);
  }
  if (theirs.length === 0) return out;
  if (schema) {
    for (const name of theirs) delete schema.properties?.[name];
    schema.required = (schema.required ?? []).filter((name) => !theirs.includes(name));
    delete schema.allOf;
  }
  if (Array.isArray(ui['ui:order'])) out['ui:order'] = (ui['ui:order'] as string[]).filter((name) => !theirs.includes(name));
  return out;
}

/** A question set without the fields the provider draws (those its UI hints mark `providerField`). */
export function withoutProviderFields(questions: QuestionsView): QuestionsView {
  const schema = structuredClone(questions.schema) as QuestionsView['schema'] & SchemaNode;
  const ui = dropMarked(schema, questions.ui);
  schema.$id = `${questions.schema.$id}/without-provider-fields`;
  return { ...questions, schema, ui };
}

/** The spec's words for what the provider says is wrong with the card (owner-payment.md §5). */
function messageKey(error: ProviderError): string | null {
  const code = error.code ?? '';
  if (/number/.test(code)) return 'payment.card.number.invalid';
  if (/expiry|expired/.test(code)) return 'payment.card.expiry.invalid';
  if (/cvc/.test(code)) return 'payment.card.cvc.invalid';
  return null;
}

/** What the page asks of the provider's fields when the card form is sent. */
export interface ProviderCardHandle {
  /** A payment method for the card in the provider's fields: its id, or the words of what is wrong (null: the provider could not be reached). */
  create(billing: Record<string, unknown>): Promise<{ token: string } | { error: string | null }>;
}

export function ProviderCardFields({
  provider,
  language,
  copy,
  handle,
  error,
}: {
  provider: { script_url: string; publishable_key: string };
  language: string;
  copy: Record<string, string>;
  handle: MutableRefObject<ProviderCardHandle | null>;
  /** The words of what is wrong with the card, said under the fields. */
  error: string | null;
}) {
  const host = useRef<HTMLDivElement>(null);
  const [failed, setFailed] = useState(false);
  const heading = useId();
  const errorId = useId();
  useEffect(() => {
    let element: CardElement | null = null;
    let gone = false;
    loadProvider(provider.script_url)
      .then((factory) => {
        if (gone || !host.current) return;
        const client = factory(provider.publishable_key);
        element = client.elements({ locale: language }).create('card');
        element.mount(host.current);
        const mounted = element;
        handle.current = {
          async create(billing) {
            try {
              const result = await client.createPaymentMethod({ type: 'card', card: mounted, billing_details: billing });
              if (result.paymentMethod) return { token: result.paymentMethod.id };
              const key = result.error ? messageKey(result.error) : null;
              return { error: key ? text(copy, key) : null };
            } catch {
              return { error: null };
            }
          },
        };
      })
      .catch(() => {
        if (!gone) setFailed(true);
      });
    return () => {
      gone = true;
      handle.current = null;
      element?.destroy();
    };
  }, [provider.script_url, provider.publishable_key, language, copy, handle]);
  return (
    <section className="provider-card" aria-labelledby={heading}>
      <h3 id={heading} className="provider-card__heading">
        {text(copy, 'payment.card.provider_fields')}
      </h3>
      {failed ? (
        <p className="panel panel--stop" role="alert">
          {text(copy, 'payment.card.unavailable')}
        </p>
      ) : (
        <div ref={host} className={error ? 'provider-card__fields provider-card__fields--error' : 'provider-card__fields'} aria-describedby={error ? errorId : undefined} />
      )}
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
