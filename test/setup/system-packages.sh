#!/usr/bin/env bash
# The programs the tests run beside Node: redis-server, Chromium (the browser tests), Debian's
# Fairy-Stockfish (the UCI bridge's tests) and python-socketio (the Python example agent).
# Installs the missing ones from Debian's packages when it can (root with apt-get); otherwise
# says what to install and fails.
set -euo pipefail

need_apt=()
command -v redis-server >/dev/null 2>&1 || need_apt+=(redis-server)
[ -x /usr/bin/chromium ] || [ -n "${CHROMIUM_PATH:-}" ] || need_apt+=(chromium)
[ -x /usr/games/fairy-stockfish ] || command -v fairy-stockfish >/dev/null 2>&1 || [ -n "${FAIRY_STOCKFISH:-}" ] || need_apt+=(fairy-stockfish)
/usr/bin/python3 -c 'import socketio, requests, websocket' 2>/dev/null || need_apt+=(python3-socketio python3-requests python3-websocket)
[ ${#need_apt[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
  echo "The tests need these Debian packages: ${need_apt[*]}. Install them (sudo apt-get install -y ${need_apt[*]}), then run the tests again." >&2
  exit 1
fi
echo "Installing ${need_apt[*]} from Debian's packages (once; the tests need them)" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${need_apt[@]}" >/dev/null
