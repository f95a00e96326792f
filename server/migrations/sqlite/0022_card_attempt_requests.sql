-- What each card attempt asked the payment provider, so that a request whose answer was lost is
-- asked again with exactly the same parameters under its key (the provider refuses a key sent
-- with others), and a new card or a new amount is seen to be a new attempt: the card token as
-- the quote keeps it (sealed), the amount, the currency, whether the card is kept, the email
-- and what a receipt shows of the card, as JSON. And the provider's customer each attempt's
-- payment is made under, recorded before the payment is asked for, so its payments can be
-- listed when no answer named them.
alter table card_attempts add column request text;
alter table card_attempts add column customer_reference text;
