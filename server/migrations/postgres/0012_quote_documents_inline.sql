-- A quote's document (about 3 KB for two pets, at most 8 KB) stays in its row as it
-- is. By default PostgreSQL compresses (pglz) any row over 2 KB: every write of a quote then
-- compressed its document and every read decompressed it, for 3.0 KB stored as 1.7 KB. Rows
-- up to the largest target there is are kept whole instead: no compression, no TOAST table.
alter table quotes set (toast_tuple_target = 8160);
