/**
 * Never a blank page: a step that cannot be drawn (a question set this renderer cannot validate,
 * a bug) is replaced, inside the brand's frame, by a message with the quote reference and the
 * brand's phone number (BrokenStep, loaded only then), which reports the failure to the server.
 */
import { Component, type ComponentProps, type ErrorInfo, type ReactNode } from 'react';

import { onDemand } from '@/shared/on-demand';

const Broken = onDemand(() => import('./BrokenStep').then((m) => m.BrokenStep));

type Props = Omit<ComponentProps<typeof Broken.Component>, 'error'> & { children: ReactNode };

type State = { failed: boolean; error?: [unknown, string] };

export class StepBoundary extends Component<Props, State> {
  state: State = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    this.setState({ error: [error, info.componentStack ?? ''] });
  }

  render() {
    const { children, ...props } = this.props;
    // Drawn once the failure is known, so it is reported once, with where it happened.
    return !this.state.failed ? children : this.state.error ? <Broken.Component {...props} error={this.state.error} /> : null;
  }
}
