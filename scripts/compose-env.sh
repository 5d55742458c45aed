#!/bin/sh
# Writes the .env of the compose install: .env.example with a fresh random value for each of the six
# secrets docker-compose.yml requires. POSIX sh, /dev/urandom and od: nothing to install.
#
#   sh scripts/compose-env.sh [--demo] [FILE]     FILE: where to write (default: .env)
#
#   --demo   also writes the demo's lines of .env.example (simulated locks, the demo hotel):
#            then `docker compose --profile demo up -d`
#
# An existing FILE is never overwritten: its secrets guard data already written (card keys, the
# database). COMPAT_DES_KEY and COMPAT_DES_IV are random too: replace them with the values your
# legacy clients use, if any connect to this install.
set -eu

demo=false
out=.env
for arg in "$@"; do
  case "$arg" in
    --demo) demo=true ;;
    -h|--help) sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "compose-env.sh: unknown option $arg (see --help)" >&2; exit 2 ;;
    *) out=$arg ;;
  esac
done

root=$(cd "$(dirname "$0")/.." && pwd)
example="$root/.env.example"
if [ -e "$out" ]; then
  echo "compose-env.sh: $out already exists; not overwritten (its secrets guard the data written under them)." >&2
  exit 1
fi

# N random bytes as 2N lowercase hex characters.
hex() {
  od -An -N"$1" -tx1 /dev/urandom | tr -d ' \n'
}

# The secrets, each with its length: hex digits are valid in every one of them (a URL path segment,
# 8 UTF-8 bytes for DES, a password).
secret_value() {
  case "$1" in
    POSTGRES_PASSWORD) hex 24 ;;
    COMPAT_DES_KEY | COMPAT_DES_IV) hex 4 ;;
    CARD_KEY_SECRET | FACE_PHOTO_SECRET) hex 32 ;;
    LOCK_CALLBACK_SECRET) hex 24 ;;
    *) return 1 ;;
  esac
}

# The demo's lines, as .env.example lists them ("#   NAME=value" in its demo paragraph).
demo_lines=$(sed -n 's/^#   \([A-Z][A-Z0-9_]*=.*\)$/\1/p' "$example")

tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
umask 077
while IFS= read -r line || [ -n "$line" ]; do
  name=${line%%=*}
  case "$line" in
    [A-Z]*=*)
      if [ -z "${line#*=}" ] && value=$(secret_value "$name"); then
        line="$name=$value"
      elif [ "$demo" = true ]; then
        replacement=$(printf '%s\n' "$demo_lines" | sed -n "s/^$name=/&/p")
        if [ -n "$replacement" ]; then line=$replacement; fi
      fi
      ;;
  esac
  printf '%s\n' "$line"
done < "$example" > "$tmp"
mv "$tmp" "$out"
trap - EXIT

echo "Wrote $out with six fresh secrets$( [ "$demo" = true ] && echo ' and the demo settings')." >&2
echo "Keep a copy of it somewhere safe: the card keys and the database need its secrets." >&2
echo "If legacy clients connect to this install, set COMPAT_DES_KEY and COMPAT_DES_IV to their values." >&2
if [ "$demo" = true ]; then
  echo "Start the demo: docker compose --profile demo up -d" >&2
else
  echo "Start: docker compose up -d" >&2
fi
