#!/usr/bin/env bash
# `npm run e2e`: the end-to-end test of the packaged extension in a real VS Code (code-server + chromium).
# Installs what it needs (scripts/e2e-setup.sh), packages the .vsix (unless ANACHRON_VSIX names one), and runs
# test/e2e/run.mjs under a hard time limit. Screenshots and logs: test-artifacts/e2e/. Fails when a check fails.
#   ANACHRON_E2E_TIMEOUT        seconds for the test run itself (default 600; 900 with ANACHRON_E2E_FULL=1)
#   ANACHRON_E2E_FULL=1         also run the benchmark at the standard size from the editor (≥ 2,000 samples, both
#                               reference models; about a minute more): `npm run e2e:full`
#   ANACHRON_E2E_SETUP_TIMEOUT  seconds for installing chromium and code-server (default 900)
set -euo pipefail
cd "$(dirname "$0")/.."
started=$(date +%s)
limit="${ANACHRON_E2E_TIMEOUT:-$([ "${ANACHRON_E2E_FULL:-}" = 1 ] && echo 900 || echo 600)}"

code_server="$(timeout --kill-after=15 "${ANACHRON_E2E_SETUP_TIMEOUT:-900}" bash scripts/e2e-setup.sh | tail -n 1)"
echo "e2e: setup done in $(( $(date +%s) - started )) s"

vsix="${ANACHRON_VSIX:-}"
if [ -z "$vsix" ]; then
  vsix="out/anachron-e2e.vsix"
  node scripts/package.mjs --out "$vsix"
fi

# run.mjs stops itself 20 s before the limit; timeout is the backstop (and kills its process group).
status=0
timeout --kill-after=15 "$limit" node test/e2e/run.mjs --vsix "$vsix" --code-server "$code_server" \
  --artifacts test-artifacts/e2e --timeout "$(( limit - 20 ))" || status=$?
# run.mjs kills what it started; should it have been killed itself, its process groups go here.
if [ -f test-artifacts/e2e/pids ]; then
  while read -r pgid; do kill -KILL -- "-$pgid" 2>/dev/null || true; done < test-artifacts/e2e/pids
fi
echo "e2e: finished with exit code $status in $(( $(date +%s) - started )) s"
exit "$status"
