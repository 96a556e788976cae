# shellcheck shell=bash
# Sourced by debian-kernel.sh and ../ynl/fetch-ynl.sh: apt in a private root,
# with the archive keyring as signed-by, so apt verifies the signatures and
# every package's checksum without touching this system's apt state. The
# mirrors are those of this system's own apt sources; none is named here.

# apt_mirror LABEL: the first repository of this system's apt sources with
# that Release label ("Debian", "Debian-Security").
apt_mirror() {
	# shellcheck disable=SC2016 # apt's own $(FIELD) syntax, not the shell's
	apt-get indextargets --format '$(LABEL) $(REPO_URI)' 2>/dev/null |
		awk -v l="$1" '$1 == l { print $2; exit }'
}

# apt_root_init ROOT SOURCES: sets APT (the options apt-get and apt-cache
# take for ROOT) and writes SOURCES (sources.list lines) there; a changed
# list makes the indexes stale.
apt_root_init() {
	local root=$1 sources=$2

	APT=(-o "Dir=$root" -o "Dir::State=$root" -o "Dir::State::Lists=$root/lists"
		-o "Dir::State::status=$root/status" -o "Dir::Cache=$root/cache" -o "Dir::Etc=$root/etc"
		-o APT::Architecture=amd64 -o APT::Architectures=amd64 -o Acquire::Languages=none
		-o Acquire::Check-Valid-Until=false -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
	mkdir -p "$root"/{etc/preferences.d,etc/apt.conf.d,etc/sources.list.d,lists/partial,cache/archives/partial}
	touch "$root/status"
	if [[ $(cat "$root/etc/sources.list" 2>/dev/null) != "$sources" ]]; then
		printf '%s\n' "$sources" >"$root/etc/sources.list"
		rm -f "$root/.updated"
	fi
}

# apt_indexes_stale ROOT: never fetched, or over a day old.
apt_indexes_stale() {
	[[ ! -f $1/.updated || -n $(find "$1/.updated" -mmin +1440) ]]
}

# apt_update ROOT: fetches the indexes; on failure prints apt's errors and
# returns 1, leaving the cached indexes (if any) as they were.
apt_update() {
	if apt-get "${APT[@]}" -q update >"$1/update.log" 2>&1 &&
		! grep -q '^[WE]:' "$1/update.log"; then
		touch "$1/.updated"
		return 0
	fi
	grep '^[WE]:' "$1/update.log" >&2 || tail -n 5 "$1/update.log" >&2
	return 1
}
