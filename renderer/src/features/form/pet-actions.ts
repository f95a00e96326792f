import { createContext, useContext } from 'react';

/** What the pet sections' buttons do: add an empty pet to the form, ask to remove one, unfold one. */
export interface PetActions {
  add: () => void;
  askRemove: (index: number) => void;
  edit: (index: number) => void;
  /** The finished pets shown as a summary with Edit rather than as their questions. */
  folded: ReadonlySet<number>;
}

export const PetActionsContext = createContext<PetActions>({ add: () => {}, askRemove: () => {}, edit: () => {}, folded: new Set() });

export function usePetActions(): PetActions {
  return useContext(PetActionsContext);
}
