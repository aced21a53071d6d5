#!/usr/bin/env bash
# A Docker engine for docker-compose.yml on a machine that has only the
# client: Debian's docker.io (dockerd, containerd, runc), docker-compose and
# debootstrap (for deploy/standins/build.sh), installed as root, and dockerd
# started in the background unless one already answers. Without NAT on the
# machine dockerd runs with --iptables=false: the host's own rules and
# services are left as they are; published ports go through docker-proxy.
#
#   deploy/standins/engine.sh      # log: $DOCKERD_LOG (/tmp/versailles-dockerd.log)
set -euo pipefail
log=${DOCKERD_LOG:-/tmp/versailles-dockerd.log}

missing=()
command -v dockerd >/dev/null || missing+=(docker.io)
command -v docker-compose >/dev/null || docker compose version >/dev/null 2>&1 || missing+=(docker-compose)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]} (Debian's packages)"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if docker info >/dev/null 2>&1; then
    echo "dockerd already answers"
    exit 0
fi

echo "starting dockerd (log: $log)"
nohup dockerd --iptables=false --ip6tables=false >"$log" 2>&1 &
for _ in $(seq 1 60); do
    if docker info >/dev/null 2>&1; then
        echo "dockerd answers: $(docker info --format '{{.ServerVersion}}, {{.Driver}}, cgroup v{{.CgroupVersion}}')"
        exit 0
    fi
    if ! kill -0 $! 2>/dev/null; then
        break
    fi
    sleep 1
done
echo "dockerd did not start; the end of its log ($log):" >&2
tail -30 "$log" >&2
exit 1
