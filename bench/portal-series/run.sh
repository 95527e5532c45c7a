#!/usr/bin/env bash
# 7 days of 10-second rollups of one volume through GET /v1/series (downsampled on the server to
# the chart's width) against the same range without downsampling (GET /v1/rollups at 10 s, paged),
# each answered by the real api on the real PostgreSQL and drawn by ECharts in headless Chromium.
# Needs: the test profile's PostgreSQL migrated, @tierwise/api and @tierwise/common built.
#   TIERWISE_PROFILE=test infra/local/postgres.sh start && TIERWISE_PROFILE=test npm run -w @tierwise/db migrate
#   TIERWISE_PROFILE=test bench/portal-series/run.sh [width]
set -euo pipefail
cd "$(dirname "$0")/../.."
export TIERWISE_PROFILE="${TIERWISE_PROFILE:-test}"
source infra/local/env.sh
exec node bench/portal-series/bench.mjs "${1:-1200}"
