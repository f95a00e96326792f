/**
 * The XL Bully question (journey.md §4 Pet details): asked only for dogs whose breed the breed
 * data marks at risk; "yes" cannot be insured.
 */
import type { WidgetProps } from '@rjsf/utils';
import { useContext } from 'react';

import { petOf, useBreedData } from '@/features/breeds/breeds-context';
import { text } from '@/shared/copy';
import { CopyContext } from '../field-errors';
import { ChoiceWidget } from './ChoiceWidget';

export function XlBullyWidget(props: WidgetProps) {
  const copy = useContext(CopyContext);
  const { byId } = useBreedData();
  const pet = petOf(props.id, props.registry.formContext?.formData);
  const breed = typeof pet.pet_breed === 'string' ? byId.get(pet.pet_breed) : undefined;
  if (pet.pet_type !== 'dog' || !breed?.at_risk) return null;
  return (
    <>
      <ChoiceWidget {...props} />
      {props.value === 'yes' && (
        <div className="panel panel--stop" role="alert">
          <p className="panel__title">{text(copy, 'pet.cannot_insure.title')}</p>
          <p>{text(copy, 'pet.xl_bully.refused')}</p>
        </div>
      )}
    </>
  );
}
