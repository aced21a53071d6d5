#!/bin/sh
# Runs redis-server as redis in /data. Like the upstream image, protected mode
# is off: the server is reached from the other containers, without a password.
set -eu
if [ "$1" = redis-server ]; then
    shift
    chown -R redis:redis /data
    exec setpriv --reuid=redis --regid=redis --init-groups \
        redis-server "$@" --protected-mode no
fi
exec "$@"
