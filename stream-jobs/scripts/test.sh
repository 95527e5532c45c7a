#!/usr/bin/env bash
# npm test: the jobs' tests (mvn test). After a failure the reports of the
# failed test classes are printed again, last, so that the end of the log (all
# a CI summary may keep) names the test that failed and why.
set -uo pipefail
cd "$(dirname "$0")/.."
mvn -B -ntp -Dstyle.color=never test && exit 0
status=$?
echo "stream-jobs: the failed test classes (target/surefire-reports):"
# Without the JDK's, JUnit's and Maven's stack frames: the message and our frames.
grep -l -E "<<< (FAILURE|ERROR)!" target/surefire-reports/*.txt 2>/dev/null | while read -r report; do
  grep -v -E '^[[:space:]]+at (java\.|jdk\.|sun\.|org\.junit\.|org\.apache\.maven\.|org\.assertj\.)' "$report" | head -n 40
done
exit "$status"
