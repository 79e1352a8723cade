#!/usr/bin/env bash
# Installs what the SIP relay benchmarks drive, when missing: SIPp (sip-tester), tcpdump (the media
# probes), Kamailio and rtpengine's
# userspace daemon (Debian bookworm packages; no kernel module: rtpengine forwards in userspace, the
# "--table=-1" mode). Called by run-*.sh; safe to run again (it installs nothing that is present).
set -euo pipefail

needs=(
  "sipp:sip-tester"
  "kamailio:kamailio"
  "rtpengine:rtpengine-daemon"
  "tcpdump:tcpdump"
)
missing=()
for need in "${needs[@]}"; do
  command -v "${need%%:*}" >/dev/null 2>&1 || missing+=("${need#*:}")
done
# Kamailio's rtpengine module ships in the main kamailio package on bookworm; check it is really there.
if command -v kamailio >/dev/null 2>&1 && ! ls /usr/lib/x86_64-linux-gnu/kamailio/modules/rtpengine.so \
    /usr/lib/*/kamailio/modules/rtpengine.so >/dev/null 2>&1; then
  missing+=("kamailio")
fi
((${#missing[@]} == 0)) && exit 0

if [[ $(id -u) -eq 0 ]]; then
  as_root=()
elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
  as_root=(sudo -n)
else
  echo "bench/setup.sh: install ${missing[*]} (apt-get install ${missing[*]}) and run again" >&2
  exit 2
fi
echo "bench/setup.sh: installing ${missing[*]}" >&2
# The packages' own service start is not wanted: the benchmark starts each daemon with its own config.
policy=/usr/sbin/policy-rc.d
created_policy=0
if [[ ! -e $policy ]]; then
  printf '#!/bin/sh\nexit 101\n' | ${as_root[@]+"${as_root[@]}"} tee "$policy" >/dev/null
  ${as_root[@]+"${as_root[@]}"} chmod +x "$policy"
  created_policy=1
fi
trap '[[ $created_policy == 1 ]] && ${as_root[@]+"${as_root[@]}"} rm -f "$policy"' EXIT
${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get update -qq
${as_root[@]+"${as_root[@]}"} env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
  "${missing[@]}" >/dev/null
