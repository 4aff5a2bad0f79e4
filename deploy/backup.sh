#!/bin/sh
# deploy/backup.sh DIR: a pg_dump of $DATABASE_URL into DIR/conquest-DATE.dump, keeping the
# newest ${KEEP:-14}. Run by conquest-backup.service; restore: docs/operators/operating.md.
set -eu
dir=${1:?usage: backup.sh DIR}
mkdir -p "$dir"
umask 077
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
pg_dump --format=custom --file="$dir/conquest-$stamp.dump.part" "$DATABASE_URL"
mv "$dir/conquest-$stamp.dump.part" "$dir/conquest-$stamp.dump"
ls -1t "$dir"/conquest-*.dump | tail -n +$((${KEEP:-14} + 1)) | while read -r old; do rm -f -- "$old"; done
echo "backup.sh: $dir/conquest-$stamp.dump"
