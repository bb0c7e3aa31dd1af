-- Sessions created before reasoned replies existed reply by retrieving once.
update sessions
set settings = '{"reasoning": false}'::jsonb || settings
where not (settings ? 'reasoning');
