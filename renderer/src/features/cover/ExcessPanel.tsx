/** The excess and claim contribution choosers (journey.md §2 Cover select, §9). */

import { text } from '@/shared/copy';
import { fromPence, toPence, useMoney } from '@/shared/money';
import type { Product } from '@/shared/types';
import { excessOptions, percentOf } from '@/features/products/cover';
import '@/features/products/cover.css';

export function ExcessPanel({
  product,
  copy,
  busy,
  petName,
  species,
  onChange,
}: {
  product: Product;
  copy: Record<string, string>;
  busy: boolean;
  petName: string;
  /** The pet's species: the example excess and the average claim are a species' (journey.md §9). */
  species: string;
  onChange: (fields: { set_excess?: string; set_coins?: string }) => void;
}) {
  const { amount } = useMoney();
  const { setExcess, coins } = excessOptions(product);
  const current = product.FlexyProductsOptions;
  const rest = fromPence(toPence(product.ClaimExample.Bill) - toPence(product.Excess));
  // journey.md §9: the example excess per condition per year, and the average claim by cover type
  // and species (the brand's own figures, as copy; none for rabbits).
  const example = copy[`cover.excess.example.${species}`];
  const average = copy[`cover.average_claim.${product.Gid.toLowerCase()}.${species}`];
  return (
    <div className="excess">
      <p className="levels__heading">{text(copy, 'cover.excess.heading', { petName })}</p>
      {setExcess.length > 1 ? (
        <fieldset className="field choice">
          <legend className="field__label">{text(copy, 'cover.excess.set')}</legend>
          <p className="field__help">{text(copy, 'cover.excess.set.hint')}</p>
          <div className="choice__options choice__options--inline">
            {setExcess.map((e) => (
              <div className="choice__option" key={e}>
                <input type="radio" id={`set-excess-${e}`} name="set-excess" value={e} checked={current.current_set_excess === e} disabled={busy} onChange={() => onChange({ set_excess: e })} />
                <label htmlFor={`set-excess-${e}`}>{amount(e)}</label>
              </div>
            ))}
          </div>
        </fieldset>
      ) : (
        <p>
          {text(copy, 'cover.excess.set')}: <strong>{amount(product.Excess)}</strong>
        </p>
      )}
      {coins.length === 1 && percentOf(coins[0]) !== '0' && (
        <p>
          {text(copy, 'cover.excess.coins')}: <strong>{text(copy, 'cover.excess.coins.option', { percent: percentOf(coins[0]) })}</strong>
        </p>
      )}
      {coins.length > 1 && (
        <fieldset className="field choice">
          <legend className="field__label">{text(copy, 'cover.excess.coins')}</legend>
          <p className="field__help">{text(copy, 'cover.excess.coins.hint')}</p>
          <div className="choice__options choice__options--inline">
            {coins.map((c) => (
              <div className="choice__option" key={c}>
                <input type="radio" id={`coins-${c}`} name="coins" value={c} checked={current.current_variable_excess === c} disabled={busy} onChange={() => onChange({ set_coins: c })} />
                <label htmlFor={`coins-${c}`}>{percentOf(c) === '0' ? text(copy, 'cover.excess.coins.none') : text(copy, 'cover.excess.coins.option', { percent: percentOf(c) })}</label>
              </div>
            ))}
          </div>
        </fieldset>
      )}
      {example && <p className="field__help">{example}</p>}
      <section className="panel panel--info claim-example" aria-labelledby="claim-example-heading">
        <h3 id="claim-example-heading" className="claim-example__heading">
          {text(copy, 'cover.claim_example.heading')}
        </h3>
        {busy ? (
          <p>
            <span className="skeleton" aria-label={text(copy, 'cover.loading')} />
          </p>
        ) : (
          <p>
            {/* With no claim contribution there is no share of the rest to speak of. */}
            {text(copy, Number(product.coins) > 0 ? 'cover.claim_example.body' : 'cover.claim_example.body_no_coins', {
              bill: amount(product.ClaimExample.Bill),
              customer: amount(product.ClaimExample.Customer),
              excess: amount(product.Excess),
              percent: product.coins,
              rest: amount(rest),
              insurer: amount(product.ClaimExample.Insurer),
            })}
          </p>
        )}
        {average && <p>{average}</p>}
        {product.ClaimExample.Warnings.map((w) => (
          <p key={w} className="claim-example__warning">
            {text(copy, w)}
          </p>
        ))}
      </section>
    </div>
  );
}

/** The benefits table (journey.md §2): a tab per vet fee limit. */
