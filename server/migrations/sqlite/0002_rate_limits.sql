-- Attempts at the code checks (promo codes, Nectar cards, existing policies) per caller and per
-- fixed window, so that nobody can enumerate codes or policy numbers. Shared by every
-- pawpath process through the database.
create table rate_limits (
    key text not null,              -- call and caller, for example promo:ip:203.0.113.9
    window_start bigint not null,   -- start of the window, seconds since the epoch
    hits bigint not null,
    primary key (key, window_start)
);

create index rate_limits_window on rate_limits (window_start);
