#!/usr/bin/env bash
# Builds stand-ins for the upstream images docker-compose.yml names, from
# Debian's packages, for a machine that reaches Debian's mirror but no image
# registry. An image that is already there, or that can be pulled, is left
# alone: the stand-ins never shadow the real thing.
#
#   deploy/standins/build.sh            # needs a running dockerd, as root
#   STANDINS_REBUILD=1 deploy/standins/build.sh
set -euo pipefail
# The classic builder, which Debian's docker.io has, without its deprecation notice.
export DOCKER_BUILDKIT=0
here=$(cd "$(dirname "$0")" && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
base=versailles-standin/bookworm

# upstream name -> folder of its stand-in
declare -A standins=(
    [python:3.11-slim]=python
    [postgres:15]=postgres
    [redis:7]=redis
    [axllent/mailpit]=mailpit
)

have() { docker image inspect "$1" >/dev/null 2>&1; }

wanted=()
for image in "${!standins[@]}"; do
    if [ -z "${STANDINS_REBUILD:-}" ] && have "$image"; then
        echo "$image: present"
    elif [ -z "${STANDINS_REBUILD:-}" ] && timeout 60 docker pull -q "$image" >/dev/null 2>&1; then
        echo "$image: pulled"
    else
        wanted+=("$image")
    fi
done
[ ${#wanted[@]} -eq 0 ] && exit 0

if [ -n "${STANDINS_REBUILD:-}" ] || ! have "$base"; then
    echo "$base: debootstrap --variant=minbase bookworm"
    rootfs=$(mktemp -d)
    trap 'rm -rf "$rootfs"' EXIT
    debootstrap --variant=minbase bookworm "$rootfs" "$mirror" >"$rootfs.log" 2>&1 \
        || { tail -20 "$rootfs.log" >&2; exit 1; }
    rm -f "$rootfs.log"
    # The machine's own certificate authorities (a TLS-inspecting egress
    # proxy's, say) so that pip inside a build reaches PyPI as the host does.
    if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
        mkdir -p "$rootfs/usr/local/share/ca-certificates"
        cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
    fi
    tar -C "$rootfs" -c . | docker import -c 'CMD ["bash"]' - "$base" >/dev/null
fi

# All at once: each build mostly waits on the mirror and on dpkg.
logs=$(mktemp -d)
declare -A builds=()
for image in "${wanted[@]}"; do
    echo "$image: stand-in from deploy/standins/${standins[$image]}"
    # The host's network: a build reaches Debian's mirror as the host does.
    docker build -q --network host -t "$image" "$here/${standins[$image]}" >"$logs/${standins[$image]}.log" 2>&1 &
    builds[$image]=$!
done
failed=0
for image in "${!builds[@]}"; do
    if ! wait "${builds[$image]}"; then
        echo "$image: the stand-in's build failed:" >&2
        tail -20 "$logs/${standins[$image]}.log" >&2
        failed=1
    fi
done
rm -rf "$logs"
exit $failed
