import { createContext, useContext } from 'react';

/** What the pet sections' buttons do: add an empty pet to the form, ask to remove one. */
export interface PetActions {
  add: () => void;
  askRemove: (index: number) => void;
}

export const PetActionsContext = createContext<PetActions>({ add: () => {}, askRemove: () => {} });

export function usePetActions(): PetActions {
  return useContext(PetActionsContext);
}
