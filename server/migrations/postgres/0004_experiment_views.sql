-- The experiment variations the page showed when the event was sent (journey.md §6: experiment
-- views are added to payloads), as JSON ["experiment:variation"], so an analyst can split any
-- step transition by variation.
alter table step_transitions add column experiment_views text not null default '[]';
