-- Every price's working, on the transition that changed the prices (a product team can
-- see why a price is what it is): JSON [{pet, code, monthly, factors, discounts_monthly}], or
-- null when the event changed no price.
alter table step_transitions add column pricing text;

-- Products a customer was shown (journey.md §7 /api/trackViewedProducts): one row per pet and
-- product code, for the analysts.
create table product_views (
    quote_id text not null references quotes (id),
    viewed_at text not null,             -- RFC 3339, UTC
    pet_original_id bigint not null,
    product_code text not null
);

create index product_views_quote on product_views (quote_id);
