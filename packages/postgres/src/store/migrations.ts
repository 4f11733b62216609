// The troupe schema's migrations, in order. Internal: read by schema.ts and the frozen-migrations test.

/**
 * Migration `n` brings the schema from version `n` to `n + 1`. Never edit a landed one: their texts
 * are fingerprinted in `landed-migrations.json` and a test fails when one changes. Fix forward.
 */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE troupe.tasks (
    task_id text PRIMARY KEY,
    created_at bigint NOT NULL,
    session_key text NOT NULL,
    agent text NOT NULL,
    status text NOT NULL,
    updated_at bigint NOT NULL,
    spec json NOT NULL,
    result json
  );
  CREATE INDEX tasks_created ON troupe.tasks (created_at DESC, task_id DESC);
  CREATE INDEX tasks_session ON troupe.tasks (session_key, created_at DESC, task_id DESC);
  CREATE INDEX tasks_status ON troupe.tasks (status, created_at DESC, task_id DESC);
  CREATE INDEX tasks_agent ON troupe.tasks (agent, created_at DESC, task_id DESC);
  CREATE TABLE troupe.status_log (
    id bigserial PRIMARY KEY,
    task_id text NOT NULL,
    record json NOT NULL
  );
  CREATE INDEX status_log_task ON troupe.status_log (task_id, id);
  CREATE TABLE troupe.journal (
    task_id text NOT NULL,
    seq integer NOT NULL,
    entry json NOT NULL,
    PRIMARY KEY (task_id, seq)
  );
  CREATE TABLE troupe.snapshots (task_id text PRIMARY KEY, document json NOT NULL);
  CREATE TABLE troupe.results (task_id text PRIMARY KEY, document json NOT NULL);
  `,
  `
  ALTER TABLE troupe.tasks ADD COLUMN worker_id text, ADD COLUMN cancel_requested text;
  CREATE TABLE troupe.workers (
    worker_id text PRIMARY KEY,
    lock_key bigint NOT NULL,
    started_at bigint NOT NULL,
    heartbeat_at bigint NOT NULL
  );
  `,
  // The schema version of the record that created each task row (its spec), read with the shared
  // parsers as the file store reads its status log: filled from each task's first logged record.
  `
  ALTER TABLE troupe.tasks ADD COLUMN v integer;
  UPDATE troupe.tasks AS task SET v = first.v
  FROM (
    SELECT DISTINCT ON (task_id) task_id, (record->>'v')::int AS v
    FROM troupe.status_log ORDER BY task_id, id
  ) AS first
  WHERE first.task_id = task.task_id;
  UPDATE troupe.tasks SET v = 2 WHERE v IS NULL;
  ALTER TABLE troupe.tasks ALTER COLUMN v SET NOT NULL;
  -- Workers of the previous release, still running during a rolling upgrade, insert rows without
  -- it; they write version-2 records.
  ALTER TABLE troupe.tasks ALTER COLUMN v SET DEFAULT 2;
  `,
  // One round trip per write batch (it was up to nine): see write-batch.ts, which prepares the
  // arrays. A single statement, so atomic on its own or inside a caller's transaction.
  `
  CREATE OR REPLACE FUNCTION troupe.write_batch(
    fence_worker text,
    c_t text[], c_c bigint[], c_s text[], c_a text[], c_st text[], c_at bigint[], c_sp text[], c_v int[],
    u_t text[], u_st text[], u_at bigint[], u_r text[],
    l_t text[], l_r text[], l_final boolean[],
    j_t text[], j_s int[], j_e text[],
    s_t text[], s_d text[],
    r_t text[], r_d text[],
    n_c text[], n_t text[], n_p text[]
  ) RETURNS text[] LANGUAGE plpgsql AS $fn$
  DECLARE
    fenced text[] := '{}';
    ended text[];
  BEGIN
    IF fence_worker IS NOT NULL THEN
      -- The lock an UPDATE of the row takes, in a fixed order: no upgrade, no lock-order deadlock.
      -- Filtered in the aggregate: a WHERE out here would be pushed under the lock, and test the
      -- row as it was before the lock wait (a claim committing meanwhile would go unseen).
      SELECT coalesce(array_agg(locked.task_id) FILTER (WHERE locked.worker_id <> fence_worker), '{}')
      INTO fenced FROM (
        SELECT task_id, worker_id FROM troupe.tasks
        WHERE task_id = ANY(u_t || l_t || j_t || s_t || r_t || n_t)
        ORDER BY task_id FOR NO KEY UPDATE
      ) AS locked;
    END IF;
    INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec, v)
    SELECT t, c, s, a, st, at, sp::json, v
    FROM unnest(c_t, c_c, c_s, c_a, c_st, c_at, c_sp, c_v) AS u(t, c, s, a, st, at, sp, v)
    WHERE NOT (t = ANY(fenced))
    ON CONFLICT (task_id) DO NOTHING;
    WITH changed AS (
      UPDATE troupe.tasks AS task
      SET status = u.st, updated_at = u.at, result = COALESCE(u.r::json, task.result)
      FROM unnest(u_t, u_st, u_at, u_r) AS u(t, st, at, r)
      WHERE task.task_id = u.t AND NOT (u.t = ANY(fenced))
        AND task.status NOT IN ('completed', 'failed', 'cancelled')
      RETURNING task.task_id, task.status
    )
    SELECT coalesce(array_agg(task_id), '{}') INTO ended FROM changed
    WHERE status IN ('completed', 'failed', 'cancelled');
    INSERT INTO troupe.status_log (task_id, record)
    SELECT t, r::json FROM unnest(l_t, l_r, l_final) WITH ORDINALITY AS u(t, r, f, n)
    WHERE NOT (t = ANY(fenced)) AND (NOT f OR t = ANY(ended))
    ORDER BY n;
    INSERT INTO troupe.journal (task_id, seq, entry)
    SELECT t, s, e::json FROM unnest(j_t, j_s, j_e) AS u(t, s, e)
    WHERE NOT (t = ANY(fenced))
    ON CONFLICT (task_id, seq) DO NOTHING;
    INSERT INTO troupe.snapshots (task_id, document)
    SELECT t, d::json FROM unnest(s_t, s_d) AS u(t, d)
    WHERE NOT (t = ANY(fenced))
    ON CONFLICT (task_id) DO UPDATE SET document = EXCLUDED.document
    WHERE (troupe.snapshots.document->>'journalLength')::int <= (EXCLUDED.document->>'journalLength')::int;
    INSERT INTO troupe.results (task_id, document)
    SELECT t, d::json FROM unnest(r_t, r_d) AS u(t, d)
    WHERE NOT (t = ANY(fenced))
    ON CONFLICT (task_id) DO NOTHING;
    -- Delivered at commit, so a listener never hears of a write it cannot read yet.
    FOR i IN 1 .. coalesce(array_length(n_p, 1), 0) LOOP
      IF n_t[i] IS NULL OR NOT (n_t[i] = ANY(fenced)) THEN
        PERFORM pg_notify(n_c[i], n_p[i]);
      END IF;
    END LOOP;
    RETURN fenced;
  END
  $fn$;
  `,
  // Migration 4 as first released locked the union of every array a batch carries; a later commit
  // edited migration 4 in place to take deduplicated `fence_ids` instead, so databases created
  // before that edit kept the old function (and the code calls the new signature). Fixed forward:
  // drop the first signature if present, then (re)create the current one. Safe on both.
  `
  DROP FUNCTION IF EXISTS troupe.write_batch(
    text,
    text[], bigint[], text[], text[], text[], bigint[], text[], int[],
    text[], text[], bigint[], text[],
    text[], text[], boolean[],
    text[], int[], text[],
    text[], text[],
    text[], text[],
    text[], text[], text[]
  );
  CREATE OR REPLACE FUNCTION troupe.write_batch(
    fence_worker text, fence_ids text[],
    c_t text[], c_c bigint[], c_s text[], c_a text[], c_st text[], c_at bigint[], c_sp text[], c_v int[],
    u_t text[], u_st text[], u_at bigint[], u_r text[],
    l_t text[], l_r text[], l_final boolean[],
    j_t text[], j_s int[], j_e text[],
    s_t text[], s_d text[],
    r_t text[], r_d text[],
    n_c text[], n_t text[], n_p text[]
  ) RETURNS text[] LANGUAGE plpgsql AS $fn$
  DECLARE
    fenced text[] := '{}';
    ended text[];
  BEGIN
    IF fence_worker IS NOT NULL THEN
      -- The lock an UPDATE of the row takes, in a fixed order: no upgrade, no lock-order deadlock.
      -- Filtered in the aggregate: a WHERE out here would be pushed under the lock, and test the
      -- row as it was before the lock wait (a claim committing meanwhile would go unseen).
      SELECT coalesce(array_agg(locked.task_id) FILTER (WHERE locked.worker_id <> fence_worker), '{}')
      INTO fenced FROM (
        SELECT task_id, worker_id FROM troupe.tasks
        WHERE task_id = ANY(fence_ids)
        ORDER BY task_id FOR NO KEY UPDATE
      ) AS locked;
    END IF;
    INSERT INTO troupe.tasks (task_id, created_at, session_key, agent, status, updated_at, spec, v)
    SELECT t, c, s, a, st, at, sp::json, v
    FROM unnest(c_t, c_c, c_s, c_a, c_st, c_at, c_sp, c_v) AS u(t, c, s, a, st, at, sp, v)
    WHERE NOT (t = ANY(fenced))
    ON CONFLICT (task_id) DO NOTHING;
    WITH changed AS (
      UPDATE troupe.tasks AS task
      SET status = u.st, updated_at = u.at, result = COALESCE(u.r::json, task.result)
      FROM unnest(u_t, u_st, u_at, u_r) AS u(t, st, at, r)
      WHERE task.task_id = u.t AND NOT (u.t = ANY(fenced))
        AND task.status NOT IN ('completed', 'failed', 'cancelled')
      RETURNING task.task_id, task.status
    )
    SELECT coalesce(array_agg(task_id), '{}') INTO ended FROM changed
    WHERE status IN ('completed', 'failed', 'cancelled');
    INSERT INTO troupe.status_log (task_id, record)
    SELECT t, r::json FROM unnest(l_t, l_r, l_final) WITH ORDINALITY AS u(t, r, f, n)
    WHERE NOT (t = ANY(fenced)) AND (NOT f OR t = ANY(ended))
    ORDER BY n;
    INSERT INTO troupe.journal (task_id, seq, entry)
    SELECT t, s, e::json FROM unnest(j_t, j_s, j_e) AS u(t, s, e)
    WHERE NOT (t = ANY(fenced))
    ON CONFLICT (task_id, seq) DO NOTHING;
    INSERT INTO troupe.snapshots (task_id, document)
    SELECT t, d::json FROM unnest(s_t, s_d) AS u(t, d)
    WHERE NOT (t = ANY(fenced))
    ON CONFLICT (task_id) DO UPDATE SET document = EXCLUDED.document
    WHERE (troupe.snapshots.document->>'journalLength')::int <= (EXCLUDED.document->>'journalLength')::int;
    INSERT INTO troupe.results (task_id, document)
    SELECT t, d::json FROM unnest(r_t, r_d) AS u(t, d)
    WHERE NOT (t = ANY(fenced))
    ON CONFLICT (task_id) DO NOTHING;
    -- Delivered at commit, so a listener never hears of a write it cannot read yet.
    FOR i IN 1 .. coalesce(array_length(n_p, 1), 0) LOOP
      IF n_t[i] IS NULL OR NOT (n_t[i] = ANY(fenced)) THEN
        PERFORM pg_notify(n_c[i], n_p[i]);
      END IF;
    END LOOP;
    RETURN fenced;
  END
  $fn$;
  `,
];
