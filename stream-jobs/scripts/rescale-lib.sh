# Helpers of stream-jobs/scripts/rescale-check.sh (sourced by it): a fresh test-profile stack per
# run, waits on the output tables, the dump of every table the jobs write. Uses its variables
# $base $tenant $t0 $cp.

# The tables the jobs write: PostgresSinks.TABLES, read from the source so none is left out.
sinks=stream-jobs/src/main/java/io/tierwise/jobs/sink/PostgresSinks.java
tables=$(sed -n '/List<String> TABLES = List.of(/,/);/p' "$sinks" | grep -o '"[a-z0-9_]*"' | tr -d '"')
# Columns left out of the comparison: stamped with the time of the write (processing time), not
# computed from the input.
excluded="'updated_at', 'created_at', 'measured_at'"

# stack_up NAME: PostgreSQL and Kafka of the test profile on a fresh state directory
# $base/NAME (empty database and topics), migrated, with the check's tenant.
stack_up() {
  export TIERWISE_STATE_DIR=$base/$1
  rm -rf "$TIERWISE_STATE_DIR"
  source infra/local/env.sh
  infra/local/postgres.sh start >/dev/null
  infra/local/kafka.sh start >/dev/null
  npm run -s -w @tierwise/db migrate >/dev/null
  psql -qAt "$TIERWISE_PG_OWNER_URL" -c "INSERT INTO tenants (id, name) VALUES ('$tenant', 'rescale check')"
}

stack_down() {
  infra/local/kafka.sh stop >/dev/null || true
  infra/local/postgres.sh stop >/dev/null || true
}

sql() { psql -qAt "$TIERWISE_PG_OWNER_URL" -c "$1"; }

input() { java -cp "$cp" io.tierwise.jobs.bench.RescaleInput "$tenant" "$t0" "$1"; }

# wait_for SQL VALUE: until the query returns VALUE (at most 180 s).
wait_for() {
  for _ in $(seq 180); do
    [ "$(sql "$1")" = "$2" ] && return
    sleep 1
  done
  echo "rescale-check: '$1' did not reach $2 within 180 s (now $(sql "$1"))" >&2
  return 1
}

# wait_quiet: until no output table has changed for 130 s: longer than the shared tiers' idle
# timeout for a volume (JobSettings.SHARED_TIER_IDLE_TIMEOUT), after which they release what they
# hold.
wait_quiet() {
  local q="SELECT concat_ws(' '" t last="" now since=$SECONDS
  for t in $tables; do
    q+=", (SELECT count(*) || md5(coalesce(string_agg(x::text, ''), '')) FROM $t x WHERE tenant_id = '$tenant')"
  done
  q+=")"
  while [ $((SECONDS - since)) -lt 130 ]; do
    now=$(sql "$q")
    [ "$now" = "$last" ] || { last=$now; since=$SECONDS; }
    sleep 2
  done
}

# dump DIR: every table's rows of the tenant (without the excluded columns) as sorted CSV, one file each.
dump() {
  mkdir -p "$1"
  local t cols n
  for t in $tables; do
    # json has no ordering operator (migration 880 stores the jobs' documents as json): its text.
    cols=$(sql "SELECT string_agg(CASE WHEN data_type = 'json' THEN quote_ident(column_name) || '::text AS ' || quote_ident(column_name)
      ELSE quote_ident(column_name) END, ', ' ORDER BY ordinal_position) FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = '$t' AND column_name NOT IN ($excluded)")
    n=$(sql "SELECT count(*) FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '$t'
      AND column_name NOT IN ($excluded)")
    psql -qAt "$TIERWISE_PG_OWNER_URL" -c "\\copy (SELECT $cols FROM $t WHERE tenant_id = '$tenant'
      ORDER BY $(seq -s, 1 "$n")) TO '$1/$t.csv' WITH (FORMAT csv, HEADER)"
  done
}
