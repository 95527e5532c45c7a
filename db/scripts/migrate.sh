#!/usr/bin/env bash
# Apply pending schema migrations (up) or roll back the newest one (down), as
# tierwise_owner, with node-pg-migrate reading the SQL files in db/migrations.
#
#   npm run -w @tierwise/db migrate        (= scripts/migrate.sh up)
#   npm run -w @tierwise/db migrate:down   (= scripts/migrate.sh down)
#
# Connection: $TIERWISE_PG_OWNER_URL; when unset, infra/local/env.sh supplies it
# for TIERWISE_PROFILE (demo by default). The applied-migrations table lives in
# its own schema (tierwise_migrations), so grants on schema public never cover it.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
if [ -z "${TIERWISE_PG_OWNER_URL:-}" ]; then
  source ../infra/local/env.sh
fi
case "${1:-}" in
  up | down) ;;
  *) echo "usage: $0 up|down" >&2; exit 2 ;;
esac
if ! pg_isready -q -t 5 -d "$TIERWISE_PG_OWNER_URL"; then
  echo "migrate: PostgreSQL at $TIERWISE_PG_OWNER_URL does not answer; start it with infra/local/postgres.sh start" >&2
  exit 1
fi
# node-pg-migrate refuses a pending migration older than one already applied
# (branches merged in another order than they were applied here): say what to do.
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if node-pg-migrate "$1" \
  --migrations-dir migrations \
  --database-url-var TIERWISE_PG_OWNER_URL \
  --migrations-schema tierwise_migrations --create-migrations-schema \
  --advisory-lock-mode wait \
  --no-verbose 2>"$log"; then
  cat "$log" >&2
  exit 0
fi
cat "$log" >&2
if grep -q "is preceding already run migration" "$log"; then
  echo "migrate: this database applied a newer migration before an older one existed here (branches merged out of order)." >&2
  echo "migrate: a development database can be recreated: ./tierwise down && rm -rf \"\$TIERWISE_STATE_DIR/postgres\" (its data is lost)." >&2
fi
exit 1
