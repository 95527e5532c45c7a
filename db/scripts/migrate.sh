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
exec node-pg-migrate "$1" \
  --migrations-dir migrations \
  --database-url-var TIERWISE_PG_OWNER_URL \
  --migrations-schema tierwise_migrations --create-migrations-schema \
  --advisory-lock-mode wait \
  --no-verbose
