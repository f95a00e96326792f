/** The view data the server sends for a page (GET page URL with Accept: application/json). */
export interface StepBarItem {
  number: number;
  label: string;
  status: 'current' | 'completed' | 'incomplete';
  clickable: boolean;
  path: string;
}

export interface Block {
  id: string;
  message: string | null;
  field: string | null;
}

export interface QuestionsView {
  id: string;
  schema: Record<string, unknown> & { $id: string };
  ui: Record<string, unknown>;
  answers: Record<string, unknown>;
  submit: string | null;
}

export interface ViewData {
  qidu: string;
  csrf: string;
  brand: string;
  channel: string;
  journey: string;
  language: string;
  pets: Array<Record<string, unknown>>;
  owner: Record<string, unknown>;
  step: {
    id: string;
    path: string;
    title: string;
    view: 'form' | 'pending' | 'assumptions';
    bar_number: number | null;
    bar_label: string | null;
    blocks: Block[];
  };
  questions: QuestionsView | null;
  /** The modals the page offers, by question set id; `submit` is the call that saves each. */
  edits: Record<string, QuestionsView>;
  step_bar: StepBarItem[];
  /** journey.md §4 Policy start date: dates as YYYY-MM-DD. */
  start_date: {
    earliest: string;
    latest: string;
    options: Array<'today' | 'tomorrow' | 'other'>;
    chosen: string;
    chosen_option: string;
    today: string;
    tomorrow: string;
  };
  copy: Record<string, string>;
}

export interface FieldMessage {
  field: string;
  message: string;
}
