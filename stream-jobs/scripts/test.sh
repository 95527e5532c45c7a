#!/usr/bin/env bash
# npm test: the jobs' tests (mvn test). After a failure the reports of the
# failed test classes are printed again, last, so that the end of the log (all
# a CI summary may keep) names the test that failed and why.
set -uo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -Dstyle.color=never test && exit 0
status=$?
echo "stream-jobs: the failed test classes (target/surefire-reports):"
grep -l -E "<<< (FAILURE|ERROR)!" target/surefire-reports/*.txt 2>/dev/null | while read -r report; do
  head -n 40 "$report"
done
exit "$status"
