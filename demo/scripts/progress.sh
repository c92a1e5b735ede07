#!/usr/bin/env bash
# progress.sh LABEL COMMAND...: runs COMMAND, saying LABEL first and then
# the seconds so far every few seconds until it ends, so that a slow first
# run (a cold Go build takes about a minute) is never a silent screen. On a
# terminal the count rewrites one line; in a log it is a line every 5 s.
# The exit status is COMMAND's.
set -u
label=$1
shift
start=$SECONDS
if [ -t 2 ]; then tty=1; else tty=0; fi
printf '%s…' "$label" >&2
[ "$tty" = 1 ] || printf '\n' >&2
(
	while sleep 5; do
		if [ "$tty" = 1 ]; then
			printf '\r%s… %ds' "$label" $((SECONDS - start)) >&2
		else
			printf '%s… %ds\n' "$label" $((SECONDS - start)) >&2
		fi
	done
) &
tick=$!
trap 'kill "$tick" 2>/dev/null' EXIT
"$@"
rc=$?
kill "$tick" 2>/dev/null
wait "$tick" 2>/dev/null
if [ "$tty" = 1 ]; then printf '\r%s… done (%ds)\033[K\n' "$label" $((SECONDS - start)) >&2; fi
exit "$rc"
