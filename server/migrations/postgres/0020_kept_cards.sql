-- A monthly card payer's card kept for the later payments: the provider's customer it
-- is kept under and its payment method, both the provider's references (never a card number).
-- Empty for a yearly payer, whose one payment is all there is.
alter table card_payments add column customer_reference text;
alter table card_payments add column payment_method_reference text;
