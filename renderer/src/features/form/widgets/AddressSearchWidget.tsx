/**
 * The owner's address (owner-payment.md §2 address search, §5 Address search, §8 Address and
 * policy): the modern search (house name or number and postcode, a list of results), the legacy
 * postcode search (Find address and a select list), and manual entry, always possible. The found
 * address fills the owner's address fields; edit links reopen it. Lookups go to
 * POST /api/AddressSearch; the postcode rule is the server's, mirrored in ../postcode.ts.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext, useId } from 'react';

import type { Notice } from '@/features/journey/journey-machine';
import { CopyContext, useFieldError } from '../field-errors';
import { GroupHead } from '../templates';
import '../form.css';
import { ChosenAddress, LegacySearch, ManualAddress, ModernSearch } from './AddressParts';
import { type Owner, useAddressSearch } from './useAddressSearch';

export function AddressSearchWidget({ id, label, registry, readonly }: WidgetProps) {
  const copy = useContext(CopyContext);
  const uid = useId();
  const context = registry.formContext as {
    formData: { owner?: Owner };
    setFields: (objectKey: string, fields: Owner) => void;
    notify?: (notice: Notice) => void;
  };
  const owner = context.formData.owner ?? {};
  const set = (fields: Owner) => context.setFields('owner', fields);
  const notify = (kind: Notice['kind'], title: string, body: string) => context.notify?.({ kind, title, body });
  const lineError = useFieldError(id);
  const postcodeError = useFieldError('root_owner_customer_postcode');
  const search = useAddressSearch(owner, set, notify, copy);

  return (
    <fieldset className="choice address-search" aria-describedby={lineError ? `${id}__error` : undefined}>
      <GroupHead id={id} label={label} />
      {search.mode === 'chosen' && <ChosenAddress search={search} uid={uid} owner={owner} readonly={readonly} />}
      {search.mode === 'modern' && <ModernSearch search={search} uid={uid} lineError={lineError} />}
      {search.mode === 'legacy' && <LegacySearch search={search} uid={uid} />}
      {search.mode === 'manual' && (
        <ManualAddress search={search} owner={owner} set={set} id={id} lineError={lineError} postcodeError={postcodeError} />
      )}
    </fieldset>
  );
}
