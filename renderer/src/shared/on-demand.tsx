/**
 * Code loaded when a page needs it (the first page downloads only what it draws).
 *
 * `onDemand` wraps a module loader as a component that can be drawn at once once its code is
 * here: `prepare()` loads it ahead (the API client does so before it hands a view over), after which the component renders with no suspension and no fallback. Drawn
 * before that (a page opened some other way), it shows `fallback` in its own boundary until the
 * code arrives, so nothing else on the page waits or flickers.
 */
import { type ComponentType, type ReactNode, Suspense, lazy } from 'react';

export interface OnDemand<P extends object> {
  /** The component: the loaded one when its code is here, else a boundary that waits for it. */
  Component: ComponentType<P>;
  /** Loads the code now (once; a failed load is tried again on the next call). */
  prepare: () => Promise<void>;
  /** Whether the code is here already. */
  ready: () => boolean;
}

export function onDemand<P extends object>(load: () => Promise<ComponentType<P>>, fallback: ReactNode = null): OnDemand<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const fetchIt = () => {
    if (!pending) {
      pending = load().then(
        (c) => {
          loaded = c;
          return c;
        },
        (e: unknown) => {
          pending = null;
          throw e;
        },
      );
    }
    return pending;
  };
  const Lazy = lazy(() => fetchIt().then((c) => ({ default: c })));
  function Component(props: P) {
    const Loaded = loaded;
    if (Loaded) return <Loaded {...props} />;
    return (
      <Suspense fallback={fallback}>
        <Lazy {...props} />
      </Suspense>
    );
  }
  return { Component, prepare: () => fetchIt().then(() => undefined), ready: () => loaded !== null };
}

/**
 * What a view needs loaded before it is drawn: registered by the parts of
 * the app that split their code (the pages, the widgets), asked by the API client per view.
 */
type Preparer = (view: unknown) => Promise<unknown> | undefined;
const preparers: Preparer[] = [];

export function whenViewArrives(preparer: Preparer) {
  preparers.push(preparer);
}

export function prepareView(view: unknown): Promise<unknown> {
  return Promise.all(preparers.map((p) => p(view)));
}
