/**
 * Keeping in touch and policy communications (owner-payment.md §2 Payment page: "keeping in touch
 * text, policy communications preference (online or post)"; §1: "After purchase they ... can set
 * marketing and communication preferences"; §3 Owner: marketing_preferences, documents_by_post).
 * Each change is saved at once through the owner update (the communications question set) and
 * confirmed with a toast (§8 Updates); it saves on its own, so answers being typed elsewhere on
 * the page are left as they are. With `marketing`, the marketing channels too ("Offers and
 * news"): one tick box for each the question set declares, labelled as the set labels it, under
 * the set's hint.
 */
import { useState } from 'react';

import { submitAnswers } from '@/features/journey/api';
import type { Notice } from '@/features/journey/journey-machine';
import { text } from '@/shared/copy';
import type { QuestionsView } from '@/shared/types';

type Communications = { documents_by_post: boolean; marketing_preferences: Record<string, boolean> };
type Ui = Record<string, unknown> & { 'ui:title'?: string; 'ui:help'?: string };

/** The marketing channels the set declares, each with its label's copy key, in its order. */
function channels(edit: QuestionsView): Array<[string, string]> {
  const schema = edit.schema.properties as Record<string, { properties?: Record<string, { properties?: Record<string, unknown> }> }> | undefined;
  const declared = Object.keys(schema?.owner?.properties?.marketing_preferences?.properties ?? {});
  const ui = ((edit.ui.owner as Record<string, Ui> | undefined)?.marketing_preferences ?? {}) as Record<string, Ui>;
  return declared.map((name) => [name, String(ui[name]?.['ui:title'] ?? name)]);
}

export function CommunicationsPanel({
  edit,
  csrf,
  copy,
  onNotice,
  marketing = false,
}: {
  edit: QuestionsView | undefined;
  csrf: string;
  copy: Record<string, string>;
  onNotice: (n: Notice) => void;
  marketing?: boolean;
}) {
  const stored = ((edit?.answers.owner ?? {}) as Partial<Communications>) ?? {};
  const [prefs, setPrefs] = useState<Communications>({
    documents_by_post: stored.documents_by_post === true,
    marketing_preferences: { ...(stored.marketing_preferences ?? {}) },
  });
  if (!edit?.submit) return null;
  const call = edit.submit;
  const form = edit.id;
  const ui = ((edit.ui.owner as Record<string, Ui> | undefined)?.marketing_preferences ?? {}) as Ui;
  async function save(next: Communications, saved: { title: string; body: string }) {
    const before = prefs;
    setPrefs(next);
    const result = await submitAnswers(call, csrf, { form, owner: next });
    if (result.kind === 'ok') {
      onNotice({ kind: 'success', ...saved });
    } else {
      setPrefs(before);
      onNotice({ kind: 'error', title: 'toast.something_wrong.title', body: 'payment.comms.failed' });
    }
  }
  return (
    <section className="card" aria-labelledby="communications-heading">
      <h2 id="communications-heading" className="pet__heading">
        {text(copy, 'owner.marketing.label')}
      </h2>
      <p>{text(copy, marketing ? 'confirmation.keeping_in_touch' : 'payment.keeping_in_touch')}</p>
      <fieldset className="choice">
        <legend className="field__label">{text(copy, 'payment.comms.heading')}</legend>
        <div className="choice__options">
          {([false, true] as const).map((post) => (
            <div className="choice__option" key={String(post)}>
              <input
                type="radio"
                id={`documents-by-post-${post}`}
                name="documents_by_post"
                checked={prefs.documents_by_post === post}
                onChange={() =>
                  // owner-payment.md §8 Updates: "Policy communications updated" / "Your preferences have been updated".
                  void save({ ...prefs, documents_by_post: post }, { title: 'toast.comms.title', body: 'toast.comms.body' })
                }
              />
              <label htmlFor={`documents-by-post-${post}`}>{text(copy, post ? 'payment.comms.post' : 'payment.comms.online')}</label>
            </div>
          ))}
        </div>
      </fieldset>
      {marketing && (
        <fieldset className="choice" aria-describedby="marketing-hint">
          <legend className="field__label">{text(copy, 'payment.marketing.label')}</legend>
          {ui['ui:help'] && (
            <p className="field__hint" id="marketing-hint">
              {text(copy, String(ui['ui:help']))}
            </p>
          )}
          {channels(edit).map(([name, label]) => (
            <div className="checkbox" key={name}>
              <input
                type="checkbox"
                id={`marketing-${name}`}
                name={name}
                checked={prefs.marketing_preferences[name] === true}
                onChange={(e) =>
                  // owner-payment.md §8 Updates: the marketing preferences' own toast.
                  void save(
                    { ...prefs, marketing_preferences: { ...prefs.marketing_preferences, [name]: e.target.checked } },
                    { title: 'toast.success.title', body: 'payment.marketing.saved' },
                  )
                }
              />
              <label htmlFor={`marketing-${name}`}>{text(copy, label)}</label>
            </div>
          ))}
        </fieldset>
      )}
    </section>
  );
}
