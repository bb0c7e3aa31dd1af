-- The share of the query's word rarity that a memory holds: 1 when it holds every query word, close to 0 when it
-- shares only a word most of the user's memories hold. An expression over lexical-by-rarity.sql's score and
-- weights, used with memoir.search.fusion coverage-weighted; otherwise every lexical rank counts in full (1).

score / nullif((select sum(w.idf) from weights w), 0)
