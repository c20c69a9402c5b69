#!/bin/sh
# setbot-ci.sh runs setbot analyze on a change, in any CI, and leaves its reports
# in a directory: the markdown report (setbot-report.md, also printed), JUnit XML
# (setbot-junit.xml), SARIF (setbot.sarif), the JSON document (setbot.json),
# GitLab's Code Quality report (setbot-codequality.json) and the report page
# (pages/setbot-BASE-HEAD.html: the statechart with the change drawn and every
# witness playable; docs/report-page.md). It exits as setbot analyze does: 0 when
# the gate passes, 1 when it blocks, 2 on a usage, repository or configuration error.
# The GitHub Action (action.yml) runs it; the GitLab template (ci/setbot.gitlab-ci.yml) runs
# the same commands.
#
# Environment:
#   SETBOT_BASE    the commit the change is measured from (for a pull or merge request,
#                  the merge base of its target and its head); required
#   SETBOT_HEAD    the commit under review (default HEAD)
#   SETBOT_OUT     the directory for the reports (default .)
#   SETBOT_CACHE   setbot's cache file (default: setbot's own, in the user cache directory)
#   SETBOT         the setbot command (default setbot)
#   SETBOT_CEILINGS "false" to let .setbot.yml's bounds go beyond the server's default
#                  ceilings (docs/server.md); by default they are capped there (--ceilings),
#                  since a pull request, a fork's too, writes the .setbot.yml it is analysed with
set -u
: "${SETBOT_BASE:?set SETBOT_BASE to the commit the change is measured from}"
out=${SETBOT_OUT:-.}
mkdir -p "$out" || exit 2
# A report left by an earlier run must not pass for this one's.
rm -f "$out/setbot-report.md" "$out/setbot-junit.xml" "$out/setbot.sarif" "$out/setbot.json" "$out/setbot-codequality.json" "$out"/pages/setbot-*.html
ceilings=--ceilings
[ "${SETBOT_CEILINGS:-true}" = false ] && ceilings=
status=0
# No pipe: the exit status is setbot's, whatever the shell's pipefail.
${SETBOT:-setbot} analyze --base "$SETBOT_BASE" --head "${SETBOT_HEAD:-HEAD}" \
  ${SETBOT_CACHE:+--cache "$SETBOT_CACHE"} $ceilings \
  --junit "$out/setbot-junit.xml" --sarif "$out/setbot.sarif" --json "$out/setbot.json" \
  --codequality "$out/setbot-codequality.json" --html "$out/pages" >"$out/setbot-report.md" || status=$?
cat "$out/setbot-report.md"
exit "$status"
