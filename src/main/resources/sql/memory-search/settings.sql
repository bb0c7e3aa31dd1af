-- Run first in every search transaction on PostgreSQL; each setting holds for that transaction only. The search is
-- planned for its actual values (why: HybridSearchRepository's Javadoc). No parallel workers: when a big user fills
-- most of its partition, the planner read the rarity sample with a parallel sequential scan whose workers took longer
-- to start than the reading itself (docs/scale-benchmark.md). On a Citus coordinator the same settings go as SET LOCAL
-- commands instead (SearchSettings), which Citus sends to the workers.
-- Named parameter: :efSearch, text: the dense candidates x memoir.search.ef-search-factor, from 40 to 1000.

select set_config('plan_cache_mode', 'force_custom_plan', true), set_config('max_parallel_workers_per_gather', '0', true), set_config('hnsw.ef_search', :efSearch, true)
