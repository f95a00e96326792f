/**
 * The widgets the first page does not draw (the address search, the bank and card fields, the
 * certificate upload, the rehoming centre), each a chunk of its own. A view's code is
 * prepared before it is drawn: the widgets its forms name (`ui:widget`) are loaded then.
 */
import type { Widget } from '@rjsf/utils';

import { type OnDemand, onDemand, whenViewArrives } from '@/shared/on-demand';

type Props = Parameters<Extract<Widget, (props: never) => unknown>>[0];
const each: Record<string, OnDemand<Props>> = {
  addressSearch: onDemand(() => import('./AddressSearchWidget').then((m) => m.AddressSearchWidget as Widget)),
  sortCode: onDemand(() => import('./SortCodeWidget').then((m) => m.SortCodeWidget as Widget)),
  daySelect: onDemand(() => import('./DaySelectWidget').then((m) => m.DaySelectWidget as Widget)),
  cardNumber: onDemand(() => import('./CardWidgets').then((m) => m.CardNumberWidget as Widget)),
  cardExpiry: onDemand(() => import('./CardWidgets').then((m) => m.CardExpiryWidget as Widget)),
  rehomingCentre: onDemand(() => import('./RehomingCentreWidget').then((m) => m.RehomingCentreWidget as Widget)),
  certificateFile: onDemand(() => import('./CertificateFileWidget').then((m) => m.CertificateFileWidget as Widget)),
};

export const onDemandWidgets: Record<string, Widget> = Object.fromEntries(Object.entries(each).map(([name, w]) => [name, w.Component as Widget]));

/** Whether a widget's code is here (drawn at once, with no wait). */
export function widgetReady(name: string): boolean {
  return each[name]?.ready() ?? false;
}

/** Every `ui:widget` named anywhere in a view (its step's forms, its edit dialogs'). */
export function widgetNames(view: unknown): Set<string> {
  const names = new Set<string>();
  const walk = (value: unknown) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, v] of Object.entries(value)) {
        if (key === 'ui:widget' && typeof v === 'string') names.add(v);
        else walk(v);
      }
    }
  };
  walk(view);
  return names;
}

whenViewArrives((view) => Promise.all([...widgetNames(view)].flatMap((name) => (each[name] ? [each[name].prepare()] : []))));
