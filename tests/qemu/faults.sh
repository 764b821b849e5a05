#!/usr/bin/env bash
# Faults in the middle: boots of the fault build (build/faults/, make
# faults-build: src/efi/efi_fault.c) in which one call fails, the N-th
# AllocatePool, AllocatePages, GetVariable, SetVariable, ReadFile or
# LoadImage of the boot, counted across lockshim and the MOK manager; then
# power cuts during the MOK manager's MokList write.
#
#   tests/qemu/faults.sh [--sample] [normal] [revoked] [db_ignored] [enrollment]
#                        [power_cut] [release]   (default: all, the whole walk)
#
# make faults runs it whole; tests/qemu/test_faults.sh (make check) runs
# --sample: every ReadFile, LoadImage and runtime AllocatePages (the
# kernel's tables) of the normal walk, and its LoaderInfo writes (the
# warning said, the kernel booted); every ReadFile and LoadImage of the
# enrollment walk, every SetVariable of its MOK manager and lockshim's
# SbatLevel and first MokListRT (FAULTS_LOADER_WRITES),
# FAULTS_ALLOCATIONS (1) allocation amid its calls and,
# with FAULTS_GET_STRIDE=N, every N-th GetVariable (none by default); the
# first read of SecureBoot, dbx and MokListX in the revoked
# walk and of MokDBState in the db_ignored walk (the reads that keep those
# kernels out); and 2 power cuts (FAULTS_CUTS, 8 in the whole walk): about
# three minutes.
#
#   normal      a normal boot: lockshim (signed by db) -> a vendor-signed
#               kernel, with MokList enrolled (build/pki/mok.esl)
#   revoked     the normal boot with the kernel's hash in dbx: every boot
#               must refuse it (a dbx or MokListX that cannot be read must
#               not let it through)
#   db_ignored  the normal boot with a db-signed kernel and MokDBState set
#               (the owner told lockshim not to trust db for kernels): every
#               boot must refuse it, also when MokDBState cannot be read
#   enrollment  an enrollment boot: the same with MokNew and MokAuth of the
#               mokutil vector import_hashfile pending (another key): lockshim
#               starts the MOK manager, the harness types the password, the
#               manager writes MokList (old key + new key) and reboots
#   power_cut   the enrollment boot killed (SIGKILL) after K flash writes of
#               the MokList SetVariable (QEMU's pflash_data_write trace), for
#               FAULTS_CUTS values of K spread over the whole write, each
#               before the boot's last write, each followed by a boot
#               without faults
#   release     the release images carry no fault code (nor its marker
#               string); the fault images do
#
# A walk first boots with nothing failing (N = 0): the fault build lists
# every call but the allocations and the tally of all of them; then one boot
# for each N walked, LOCKSHIM_JOBS (tests/qemu/lib.sh) at a time, each from a fresh
# copy of the walk's VARS store with LockshimFaultAt set to N. Each boot is
# classified from its serial log and its VARS store afterwards:
#   verified boot       the kernel started after lockshim's verdict "booting
#                       \EFI\BOOT\vmlinuz.efi: signed by ..." for it
#   refused             no kernel; the last line of lockshim or the manager
#                       gives the reason
#   MOK manager again   the request is still pending: the next boot starts
#                       the manager again
#   enrolled            the manager wrote the new MokList and rebooted
# and fails the walk when any boot was
#   unverified          a kernel started without that verdict first
#   lost key / half-written  MokList afterwards is not the one before (the
#                       normal walk), nor the old or the new one exactly (the
#                       enrollment walk)
#   crash, hang         a CPU exception in OVMF's log; no end within QEMU_TIMEOUT
#   silent              no kernel, and nothing said after the fault
#   served-yet-pending  the manager served the request but it is still there
#   not reached         call N never came (the boots are not deterministic)
#   system-table        the firmware's system table did not hold its own
#                       services when an image was started
#   tables not installed  an allocation of runtime pages failed (the
#                       lockdown table's or the MokVar table's) and the
#                       kernel started all the same
# The boot without faults of the normal walk also checks that each variable
# only the MOK manager writes is read once (two GetVariable calls at most).
# Prints one TAP line per part, failing boots as diagnostics, and
#   faults: N calls walked; outcomes: verified boot A, refused B, MOK manager
#   again C, enrolled D; unverified boots 0; lost keys 0
# Logs: build/qemu/faults/<walk>/N.log.

# shellcheck source=tests/qemu/boot.sh
LOCKSHIM_EFI=${LOCKSHIM_EFI:-build/faults/lockshimx64.efi}
. "$(dirname "${BASH_SOURCE[0]}")/boot.sh" # cds to the repository
set -uo pipefail

MM_EFI=${MM_EFI:-build/faults/mmx64.efi}
FAULTS_WORK=$QEMU_BUILD/faults
BOOT_WORK=$FAULTS_WORK/boot
QEMU_TIMEOUT=${QEMU_TIMEOUT:-60}
FAULTS_MATCH=${FAULTS_MATCH:-} # only the listed calls matching this ERE ("GetVariable dbx$")
FAULTS_GET_STRIDE=${FAULTS_GET_STRIDE:-0} # 0: no GetVariable in the sample
FAULTS_ALLOCATIONS=${FAULTS_ALLOCATIONS:-1}
# lockshim's own writes before it starts the manager that the enrollment
# sample fails: the SbatLevel update (non-volatile) and one runtime mirror.
# The others (SbatLevelRT, MokListXRT, MokSBStateRT, MokIgnoreDB,
# MokListTrustedRT, and the second MokListRT and SbatLevelRT calls) take
# the same path through efi_vars.c; the whole walk fails each.
FAULTS_LOADER_WRITES=${FAULTS_LOADER_WRITES-SbatLevel MokListRT}
SHIM_GUID=605dab50-e046-4300-abb6-3dd810dd8b23
FAULT_GUID=b8e9e7b1-23a8-40c1-bdbb-e0fcffb56be5
VECTOR=tests/vectors/mokutil/import_hashfile
PASSWORD=lockshim-mok-1 # the vector's
KERNEL_STARTED='EFI stub: |LOCKSHIM-TEST-MARKER'
VERDICT='lockshim: booting \EFI\BOOT\vmlinuz.efi: signed by /CN=lockshim test vendor, trusted through vendor certificate /CN=lockshim test vendor'
FAULT_TAG=LSFAULT!
# lockshim not enforcing, or booting anything unverified
NOT_ENFORCED='^lockshim: (Secure Boot is off|booting in insecure mode|booting .* unverified|lockdown table: not locked)'


declare -A WALK_VARS=()

faults_prepare() {
	boot_prepare || return 1
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 1
	[[ -s $MM_EFI ]] || { PREP_ERROR="$MM_EFI missing (make faults-build)"; return 1; }
	mkdir -p "$FAULTS_WORK/data"
	_prep "db-signed MOK manager" sign_efi db "$MM_EFI" "$FAULTS_WORK/mmx64-db.efi" || return 1
	# LockshimFaultAt: the tag and N (0 here); each boot patches N in its copy.
	printf '%s\0\0\0\0' "$FAULT_TAG" >"$FAULTS_WORK/data/fault-at.bin"
	printf '\1' >"$FAULTS_WORK/data/one.bin"
	# The kernel: boot_prepare's companion test kernel, whose EFI stub
	# speaks half a second after lockshim starts it (Debian's, 3 s later: it
	# decompresses itself first); it is what "started" means here.
	local fault=(--var "LockshimFaultAt:$FAULT_GUID:0x3:$FAULTS_WORK/data/fault-at.bin"
		--var "MokList:$SHIM_GUID:0x3:$PKI/mok.esl")
	VARS_NORMAL=$(tests/qemu/vars.sh --variant faults-normal "${fault[@]}" "$PKI" 2>>"$PREP_LOG") &&
		VARS_ENROLL=$(tests/qemu/vars.sh --variant faults-enrollment "${fault[@]}" \
			--var "MokNew:$SHIM_GUID:0x7:$VECTOR/MokNew.bin" \
			--var "MokAuth:$SHIM_GUID:0x7:$VECTOR/MokAuth.bin" "$PKI" 2>>"$PREP_LOG") &&
		VARS_REVOKED=$(tests/qemu/vars.sh --variant faults-revoked "${fault[@]}" \
			--dbx-hash "$BOOT_WORK/companion-vendor.efi" "$PKI" 2>>"$PREP_LOG") &&
		VARS_DB_IGNORED=$(tests/qemu/vars.sh --variant faults-db-ignored "${fault[@]}" \
			--var "MokDBState:$SHIM_GUID:0x3:$FAULTS_WORK/data/one.bin" "$PKI" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="vars.sh --variant faults-*: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 1; }
	WALK_VARS=([normal]=$VARS_NORMAL [enrollment]=$VARS_ENROLL [revoked]=$VARS_REVOKED
		[db_ignored]=$VARS_DB_IGNORED)
	# One ESP per walk and guest slot: QEMU locks the image it boots, and
	# the walks may run at the same time (tests/qemu/run).
	local i walk
	for (( i = 1; i <= LOCKSHIM_JOBS; i++ )); do
		for walk in normal revoked; do
			_prep "ESP" make_esp "$FAULTS_WORK/$walk-$i.esp" \
				"$BOOT_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI \
				"$BOOT_WORK/companion-vendor.efi" EFI/BOOT/vmlinuz.efi \
				build/initramfs/initrd.img EFI/BOOT/initrd.img || return 1
		done
		_prep "ESP" make_esp "$FAULTS_WORK/db_ignored-$i.esp" \
			"$BOOT_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI \
			"$BOOT_WORK/companion-db.efi" EFI/BOOT/vmlinuz.efi \
			build/initramfs/initrd.img EFI/BOOT/initrd.img &&
			_prep "ESP" make_esp "$FAULTS_WORK/enrollment-$i.esp" \
				"$BOOT_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI \
				"$FAULTS_WORK/mmx64-db.efi" EFI/BOOT/mmx64.efi \
				"$BOOT_WORK/companion-vendor.efi" EFI/BOOT/vmlinuz.efi \
				build/initramfs/initrd.img EFI/BOOT/initrd.img || return 1
	done
	OLD_LIST=$(moklist_of "$VARS_NORMAL")
	[[ -n $OLD_LIST ]] || { PREP_ERROR="no MokList in $VARS_NORMAL"; return 1; }
}

# moklist_of VARS: the SHA-256 of each live MokList (one line each; none: empty).
moklist_of() {
	python3 tests/qemu/mkdmpstore.py --list "$1" |
		awk -v g="$SHIM_GUID" '$1 == "MokList" && $2 == g { print $3 ":" $5 }'
}

# request_pending VARS: MokNew or MokAuth is still there.
request_pending() {
	python3 tests/qemu/mkdmpstore.py --list "$1" |
		awk -v g="$SHIM_GUID" '($1 == "MokNew" || $1 == "MokAuth") && $2 == g { f = 1 } END { exit !f }'
}

# set_fault_at VARS N: LockshimFaultAt's N, in place.
set_fault_at() {
	python3 - "$1" "$2" "$FAULT_TAG" <<-'EOF'
		import struct, sys
		path, n, tag = sys.argv[1], int(sys.argv[2]), sys.argv[3].encode()
		data = bytearray(open(path, "rb").read())
		at, i = [], data.find(tag)
		while i >= 0:
		    at.append(i)
		    i = data.find(tag, i + 1)
		if len(at) != 1:
		    sys.exit(f"{path}: {len(at)} LockshimFaultAt values, expected 1")
		data[at[0] + 8:at[0] + 12] = struct.pack("<I", n)
		open(path, "wb").write(data)
	EOF
}

# boot_fault WALK N SLOT [run_qemu options]: one boot of WALK's ESP (copy
# SLOT) with call N failing (0: none), from a fresh copy of the walk's store,
# kept as $FAULTS_WORK/WALK/N.fd; the log is $FAULTS_WORK/WALK/N.log. Every
# boot of the walks ends at the latest as the kernel's EFI stub starts:
# run_qemu --firmware-only.
boot_fault() {
	local walk=$1 n=$2 slot=$3; shift 3
	local dir=$FAULTS_WORK/$walk base=${WALK_VARS[$walk]} esp=$walk
	local -a send=()
	if [[ $walk == enrollment ]]; then
		local a
		# the manager's menu, when a fault leaves it nothing to serve: go
		# on booting at once, as it would after its 60 s (not waited out)
		send+=(--send-on "$MM_YES_ENROLL" 'yes\r' --send-on "$MM_MENU_CHOICE" '3')
		for a in 1 2 3; do send+=(--send-on "Password for Enroll MOK \\(attempt $a of 3\\)" "$PASSWORD\\r"); done
	fi
	mkdir -p "$dir"
	cp "$base" "$dir/$n.fd" && set_fault_at "$dir/$n.fd" "$n" || return 1
	run_qemu --esp "$FAULTS_WORK/$esp-$slot.esp" --vars "$dir/$n.fd" --persist \
		--log "$dir/$n.log" --timeout "$QEMU_TIMEOUT" --grace 0.1 --firmware-only \
		--stop "$KERNEL_STARTED" --stop 'No bootable option' --stop "$QEMU_CRASH" "${send[@]}" "$@"
}

# classify WALK N: after boot_fault, one line "N KIND [PROBLEM] | DETAIL"
# into $FAULTS_WORK/WALK/N.result.
classify() {
	local walk=$1 n=$2 dir=$FAULTS_WORK/$1
	local log=$dir/$n.log vars=$dir/$n.fd kind problem='' detail='' list
	local first_kernel verdict_at fault_at
	first_kernel=$(LC_ALL=C grep -n -m1 -E "$KERNEL_STARTED" "$log" | cut -d: -f1)
	verdict_at=$(LC_ALL=C grep -n -m1 -F -x "$VERDICT" "$log" | cut -d: -f1)
	fault_at=$(LC_ALL=C grep -n -m1 -E "^fault: failing call $n \(" "$log" | cut -d: -f1)
	detail=$(LC_ALL=C grep -m1 -oE "^fault: failing call $n \(.*\)" "$log" | sed 's/^fault: failing //')
	if [[ -n $first_kernel ]]; then
		kind="verified boot"
		# Secure Boot is on in every store: a kernel must start verified and
		# locked, and never the one in dbx
		if [[ $walk == revoked || $walk == db_ignored || -z $verdict_at ]] || (( verdict_at > first_kernel )) ||
			LC_ALL=C grep -q -E "$NOT_ENFORCED" "$log"; then
			problem=unverified kind="unverified boot"
		fi
	elif LC_ALL=C grep -q -x -F 'MOK manager: rebooting' "$log"; then
		kind=enrolled
	else
		kind=refused
		local reason
		reason=$(LC_ALL=C tail -n +"${fault_at:-1}" "$log" | LC_ALL=C grep -E '^(lockshim|MOK manager): ' |
			tail -n 1)
		detail+=" -> ${reason:-nothing said}"
		[[ -n $reason ]] || problem=silent
	fi
	if [[ $walk == enrollment ]] && request_pending "$vars"; then
		kind="MOK manager again"
		# a request served must be gone, or the next boot serves it again
		LC_ALL=C grep -q -E '^MOK manager: Enroll MOK: done' "$log" && problem+=" served-yet-pending"
	fi
	# the enrollment's new list holds the old one whole: old or new, no key lost
	list=$(moklist_of "$vars")
	if [[ $walk != enrollment && $list != "$OLD_LIST" ]]; then
		problem+=" lost-key"
	elif [[ $walk == enrollment && $list != "$OLD_LIST" && $list != "${NEW_LIST:-}" ]]; then
		problem+=" lost-key half-written"
	fi
	if [[ $QEMU_OUTCOME == stopped && $QEMU_STOPPED_ON == "$QEMU_CRASH" ]]; then
		problem+=" crash"
	elif [[ $QEMU_OUTCOME == timeout ]]; then
		problem+=" hang"
	fi
	(( n == 0 )) || [[ -n $fault_at ]] || problem+=" not-reached"
	LC_ALL=C grep -q -F 'fault: the system table no longer holds' "$log" && problem+=" system-table"
	# the walks' TPM 1.2 is for OVMF's probe alone (run_qemu --firmware-only)
	LC_ALL=C grep -q -E "$TPM_SAID" "$log" && problem+=" tpm-seen"
	echo "$n|$kind|${problem# }|$detail" >"$dir/$n.result"
}

# count_calls WALK: the boot with nothing failing; sets CALLS (the tally's
# total) and LISTED (the numbers of the calls it lists: all but allocations).
count_calls() {
	local walk=$1 dir=$FAULTS_WORK/$1
	rm -rf "$dir" && mkdir -p "$dir"
	boot_fault "$walk" 0 1 || { qemu_outcome "$walk: count"; return 1; }
	qemu_outcome "$walk: count" || return 1
	if [[ $walk == enrollment ]]; then
		NEW_LIST=$(moklist_of "$dir/0.fd")
		expect_log '^MOK manager: rebooting$' || return 1
		if [[ $NEW_LIST == "$OLD_LIST" || -z $NEW_LIST ]]; then
			echo "FAIL: the enrollment boot left MokList unchanged" >&2
			return 1
		fi
	elif [[ $walk == revoked || $walk == db_ignored ]]; then
		expect_log -F 'lockshim: refusing \EFI\BOOT\vmlinuz.efi: ' &&
			expect_no_log "$KERNEL_STARTED" || return 1
	else
		if ! LC_ALL=C grep -qxF "$VERDICT" "$LOG"; then
			echo "FAIL: no verdict '$VERDICT' in $LOG" >&2
			return 1
		fi
		expect_log "$KERNEL_STARTED" || return 1
	fi
	expect_no_log -F 'fault: the system table no longer holds' || return 1
	CALLS=$(LC_ALL=C grep -oE '^fault: tally: [0-9]+ calls' "$LOG" | tail -n 1 | grep -oE '[0-9]+')
	# "N Kind what" for every call but the allocations
	mapfile -t LISTED < <(LC_ALL=C sed -nE 's/^fault: call ([0-9]+): /\1 /p' "$LOG")
	if [[ -z $CALLS ]]; then
		echo "FAIL: no tally in $LOG" >&2
		return 1
	fi
	# each variable only the MOK manager writes is read once per boot
	# (src/efi/efi_mok.c: one efi_var_read, two GetVariable calls at most)
	if [[ $walk == normal ]]; then
		local variable reads
		for variable in MokList MokListX MokSBState MokDBState MokListTrusted MokPWStore; do
			reads=$(printf '%s\n' "${LISTED[@]}" |
				awk -v v="$variable" '$2 == "GetVariable" && $3 == v' | wc -l)
			(( reads <= 2 )) || {
				echo "FAIL: $variable read with $reads GetVariable calls in one boot, not once" >&2
				return 1
			}
		done
	fi
	echo "# $walk boot: $(LC_ALL=C grep -E '^fault: tally: ' "$LOG" | tail -n 1 | sed 's/^fault: tally: //') (${QEMU_ELAPSED}s)" >&2
}

# sample_calls: the sample of a walk's calls (after count_calls): every
# ReadFile and LoadImage; every SetVariable after the first LoadImage (the
# MOK manager's) and, before it, lockshim's own writes of the names in
# FAULTS_LOADER_WRITES only (the first of each); every
# FAULTS_GET_STRIDE-th GetVariable (none when 0), and FAULTS_ALLOCATIONS
# allocations evenly spread.
sample_calls() {
	printf '%s\n' "${LISTED[@]}" | awk -v g="$FAULTS_GET_STRIDE" -v calls="$CALLS" -v allocs="$FAULTS_ALLOCATIONS" \
		-v loader_writes="$FAULTS_LOADER_WRITES" '
		BEGIN { split(loader_writes, w, " "); for (i in w) wanted[w[i]] = 1 }
		{ listed[$1] = 1 }
		$2 == "LoadImage" { loaded = 1 }
		$2 == "SetVariable" && !loaded { if (($3 in wanted) && !written[$3]++) print $1; next }
		$2 != "GetVariable" && $2 != "AllocatePages" { print $1 }
		$2 == "GetVariable" && g > 0 && gets++ % g == 0 { print $1 }
		END {
			for (n = 1; n <= calls; n++) if (!(n in listed)) alloc[++a] = n
			for (i = 1; i <= allocs && a; i++) print alloc[int((i - 0.5) * a / allocs) + 1]
		}' | sort -n -u
}

# walk_calls WALK N...: boot and classify each, LOCKSHIM_JOBS at a time.
walk_calls() {
	local walk=$1; shift
	local -a free=($(seq 1 "$LOCKSHIM_JOBS")) pids=() slots=()
	local n i
	_walk_one() {
		boot_fault "$walk" "$1" "$2" >/dev/null 2>&1
		classify "$walk" "$1"
		rm -f "$FAULTS_WORK/$walk/$1.log.raw"
	}
	for n in "$@"; do
		while (( ${#pids[@]} >= LOCKSHIM_JOBS )); do
			wait -n -p done_pid "${pids[@]}"
			for i in "${!pids[@]}"; do
				if [[ ${pids[i]} == "$done_pid" ]]; then
					free+=("${slots[i]}")
					unset 'pids[i]' 'slots[i]'
				fi
			done
			pids=("${pids[@]}") slots=("${slots[@]}")
		done
		_walk_one "$n" "${free[0]}" &
		pids+=($!) slots+=("${free[0]}")
		free=("${free[@]:1}")
	done
	wait
}

# first_of_each: of the listed calls "N Kind name", the first of each kind and name.
first_of_each() { awk '!seen[$2 " " $3]++'; }

# tables_fault_refused LOG N: after call N failed, the same run of lockshim
# refused (its next verdict line) rather than boot.
# (awk reads to the end: leaving early would let tr die of SIGPIPE, and
# pipefail then call a refused boot one that started the kernel)
tables_fault_refused() {
	tr -d '\r' <"$1" | awk -v f="fault: failing call $2 " '
		index($0, f) == 1 { seen = 1; next }
		seen && !said && /^lockshim: (refusing|booting) / { said = 1; refused = /^lockshim: refusing / }
		END { exit !refused }'
}

# sample_choose WALK: the calls of WALK to fail (after count_calls: LISTED,
# CALLS) into CALLS_CHOSEN: all of them, or the sample (SAMPLE=1), or those
# FAULTS_MATCH selects. A sample is chosen by patterns over the fault
# build's lines, so one that matches nothing (a line changed, a call no
# longer made) would test nothing: that, and a sample missing a call it
# must hold, fails (tests/qemu/test_harness.sh shows it).
sample_choose() {
	local walk=$1
	local match=$FAULTS_MATCH
	# what the sample must hold: one call of each (ERE over "N Kind name")
	local -a must=()
	# the revoked walk's sample: the reads that decide whether it is refused
	# (the first read of each: a refusal's second boot entry reads them again)
	local first=cat
	[[ -z $match && $walk == revoked ]] && (( SAMPLE )) && match='GetVariable (SecureBoot|dbx|MokListX)$' first=first_of_each &&
		must=('GetVariable SecureBoot$' 'GetVariable dbx$' 'GetVariable MokListX$')
	[[ -z $match && $walk == db_ignored ]] && (( SAMPLE )) && match='GetVariable MokDBState$' first=first_of_each &&
		must=('GetVariable MokDBState$')
	# the normal walk's writes are the runtime mirrors, which cannot let an
	# unverified image through: the sample fails its reads, its LoadImage,
	# the page allocations of the kernel's tables and the writes of
	# LoaderInfo (a warning, the boot goes on)
	[[ -z $match && $walk == normal ]] && (( SAMPLE )) &&
		match='^[0-9]+ (ReadFile|LoadImage|AllocatePages runtime)( |$)|^[0-9]+ SetVariable LoaderInfo$' &&
		must=('^[0-9]+ ReadFile( |$)' '^[0-9]+ LoadImage( |$)' '^[0-9]+ AllocatePages runtime( |$)'
			'^[0-9]+ SetVariable LoaderInfo$')
	if [[ -z $match && $walk == enrollment ]] && (( SAMPLE )); then
		must=('^[0-9]+ SetVariable MokList$' '^[0-9]+ ReadFile( |$)' '^[0-9]+ LoadImage( |$)')
		local name
		for name in $FAULTS_LOADER_WRITES; do must+=("^[0-9]+ SetVariable $name\$"); done
	fi
	if [[ -n $match ]]; then
		mapfile -t CALLS_CHOSEN < <(printf '%s\n' "${LISTED[@]}" | LC_ALL=C grep -E -- "$match" | $first | cut -d' ' -f1)
	elif (( SAMPLE )); then
		mapfile -t CALLS_CHOSEN < <(sample_calls)
	else
		mapfile -t CALLS_CHOSEN < <(seq 1 "$CALLS")
	fi
	if (( ${#CALLS_CHOSEN[@]} == 0 )); then
		echo "FAIL: $walk: no call to fail (sample /${match:-sample_calls}/ over ${#LISTED[@]} listed calls)" >&2
		return 1
	fi
	local want chosen
	chosen=$(printf '%s\n' "${LISTED[@]}" | LC_ALL=C grep -E "^($(IFS='|'; echo "${CALLS_CHOSEN[*]}")) ")
	for want in "${must[@]}"; do
		LC_ALL=C grep -qE -- "$want" <<<"$chosen" && continue
		echo "FAIL: $walk: the sample has no call /$want/ (chosen: $(paste -s -d, <<<"$chosen"))" >&2
		return 1
	done
}

# walk WALK NAME: count, walk (all calls, or the sample), report.
walk() {
	local walk=$1 name=$2 t0 n
	local -a CALLS_CHOSEN=()
	t0=$(date +%s)
	count_calls "$walk" || { echo "FAIL: $name: the boot without faults" >&2; return 1; }
	sample_choose "$walk" || return 1
	local -a calls=("${CALLS_CHOSEN[@]}")
	walk_calls "$walk" "${calls[@]}"
	local -A kinds=()
	local walked=0 failed=0 unverified=0 lost=0 line kind problem detail
	for n in "${calls[@]}"; do
		line=$(cat "$FAULTS_WORK/$walk/$n.result" 2>/dev/null) || line="$n|none|no result|"
		IFS='|' read -r _ kind problem detail <<<"$line"
		walked=$(( walked + 1 ))
		kinds[$kind]=$(( ${kinds[$kind]:-0} + 1 ))
		# under Secure Boot, a kernel whose tables (the lockdown table, the
		# MokVar table: AllocatePages) could not be installed must not start
		# (the firmware may then start lockshim again, from its next entry)
		if [[ $walk != enrollment && -z $problem ]] &&
			printf '%s\n' "${LISTED[@]}" | LC_ALL=C grep -xF "$n AllocatePages runtime" >/dev/null &&
			! tables_fault_refused "$FAULTS_WORK/$walk/$n.log" "$n"; then
			problem="tables not installed, kernel started"
		fi
		# a Boot Loader Interface variable that cannot be set is a warning:
		# said, and the boot goes on to the verified kernel
		local var
		var=$(printf '%s\n' "${LISTED[@]}" | LC_ALL=C sed -n "s/^$n SetVariable \(Loader[A-Za-z]*\)\$/\1/p")
		if [[ -n $var && -z $problem ]] && { [[ $kind != "verified boot" ]] ||
			! LC_ALL=C grep -aq "^lockshim: Boot Loader Interface: cannot set $var: " "$FAULTS_WORK/$walk/$n.log"; }; then
			problem="$var not set: not a warning before a verified boot"
		fi
		[[ $problem == *unverified* ]] && unverified=$(( unverified + 1 ))
		[[ $problem == *lost-key* || $problem == *half-written* ]] && lost=$(( lost + 1 ))
		if [[ -n $problem ]]; then
			failed=$(( failed + 1 ))
			echo "# $walk call $n: $problem ($kind; $detail; log $FAULTS_WORK/$walk/$n.log)" >&2
		fi
	done
	local outcomes
	outcomes=$(for kind in "verified boot" refused "MOK manager again" enrolled; do
		echo "$kind ${kinds[$kind]:-0}"; done | paste -s -d, | sed 's/,/, /g')
	echo "faults: $walk: $walked of $CALLS calls walked in $(( $(date +%s) - t0 ))s; outcomes: $outcomes; unverified boots $unverified; lost keys $lost; other failures $(( failed - unverified - lost < 0 ? 0 : failed - unverified - lost ))"
	printf '%s %s %s %s %s %s %s %s\n' "$walked" "${kinds[verified boot]:-0}" "${kinds[refused]:-0}" \
		"${kinds[MOK manager again]:-0}" "${kinds[enrolled]:-0}" "$unverified" "$lost" "$failed" \
		>"$FAULTS_WORK/$walk.totals"
	if (( failed )); then
		echo "FAIL: $name: $failed of $walked boots failed" >&2
		return 1
	fi
}

# mokList_write_start TRACE: how many flash writes come before the MOK
# manager's MokList write in TRACE (QEMU's pflash_data_write lines): the
# variable header's start (0xAA 0x55) before the last name "MokList\0".
moklist_write_start() {
	python3 - "$1" <<-'EOF'
		import re, sys
		values = [int(v, 16) & 0xff for v in re.findall(rb"pflash_data_write .* value:(0x[0-9a-f]+)", open(sys.argv[1], "rb").read())]
		name = list("MokList\0".encode("utf-16-le"))
		at = max((i for i in range(len(values)) if values[i:i + len(name)] == name), default=None)
		start = max((i for i in range(at or 0) if values[i:i + 2] == [0xaa, 0x55]), default=None) if at else None
		if start is None:
		    sys.exit("no MokList write in the trace")
		print(start, len(values))
	EOF
}

# power_cut: the enrollment boot (nothing failing) killed FAULTS_CUTS times
# during the MokList write, each time booted again: MokList is then the old
# list or the new one, exactly, and only one.
power_cut() {
	local name=faults_power_cut dir=$FAULTS_WORK/power_cut t0 start total j k
	local -a pw=(--send-on "$MM_YES_ENROLL" 'yes\r'
		--send-on 'Password for Enroll MOK \(attempt 1 of 3\)' "$PASSWORD\r"
		--send-on "$MM_MENU_CHOICE" '3')
	local -a trace=(-trace enable=pflash_data_write)
	local old=0 new=0 failed=0 list cut
	t0=$(date +%s)
	rm -rf "$dir" && mkdir -p "$dir"
	cp "$FAULTS_WORK/enrollment-1.esp" "$dir/esp.img" && cp "$VARS_ENROLL" "$dir/ref.fd" || return 1
	# the reference: the enrollment boot, nothing cut; its MokList is the new one
	run_qemu --esp "$dir/esp.img" --vars "$dir/ref.fd" --persist --log "$dir/ref.log" \
		--timeout "$QEMU_TIMEOUT" --firmware-only --stop "$QEMU_CRASH" "${pw[@]}" -- "${trace[@]}" >/dev/null 2>&1
	qemu_outcome "$name: reference boot" && expect_log '^MOK manager: rebooting$' || return 1
	local new_list
	new_list=$(moklist_of "$dir/ref.fd")
	if [[ -z $new_list || $new_list == "$OLD_LIST" ]]; then
		echo "FAIL: the enrollment boot left MokList unchanged" >&2
		return 1
	fi
	read -r start total < <(moklist_write_start "$dir/ref.log.err") ||
		{ echo "FAIL: no MokList write traced in $dir/ref.log.err" >&2; return 1; }
	echo "# power cut: the enrollment boot makes $total flash writes, the MokList write from write $start on" >&2
	for (( j = 1; j <= FAULTS_CUTS; j++ )); do
		# evenly inside the write, from the list's header on, never at the
		# boot's last write (a cut there cuts nothing: the write is done)
		k=$(( start + j * (total - start) / (FAULTS_CUTS + 1) ))
		cp "$VARS_ENROLL" "$dir/$j.fd"
		rm -f "$dir/$j.pid" "$dir/$j.record"
		python3 tests/qemu/power_cut.py "$dir/$j.log.err" "$dir/$j.pid" "$k" "$dir/$j.record" &
		local killer=$!
		run_qemu --esp "$dir/esp.img" --vars "$dir/$j.fd" --persist --log "$dir/$j.log" \
			--timeout "$QEMU_TIMEOUT" --firmware-only --stop "$QEMU_CRASH" "${pw[@]}" -- "${trace[@]}" -pidfile "$dir/$j.pid" \
			>/dev/null 2>&1
		wait "$killer"
		cut=$(cat "$dir/$j.record" 2>/dev/null)
		# the next boot, nothing failing: the firmware recovers its store,
		# and the machine boots its kernel, verified (the manager again
		# first when the request survived the cut: it reboots, -no-reboot
		# ends QEMU, and the boot after that must reach the kernel)
		local after=$dir/$j-after.log outcome=
		run_qemu --esp "$dir/esp.img" --vars "$dir/$j.fd" --persist --log "$after" \
			--timeout "$QEMU_TIMEOUT" --grace 0.1 --firmware-only --stop "$KERNEL_STARTED" --stop 'No bootable option' \
			--stop "$QEMU_CRASH" "${pw[@]}" >/dev/null 2>&1
		if [[ $QEMU_OUTCOME == exited ]] && LC_ALL=C grep -q '^MOK manager: rebooting' "$after"; then
			after=$dir/$j-after2.log
			run_qemu --esp "$dir/esp.img" --vars "$dir/$j.fd" --persist --log "$after" \
				--timeout "$QEMU_TIMEOUT" --grace 0.1 --firmware-only --stop "$KERNEL_STARTED" --stop 'No bootable option' \
				--stop "$QEMU_CRASH" "${pw[@]}" >/dev/null 2>&1
		fi
		if [[ $QEMU_OUTCOME != stopped || $QEMU_STOPPED_ON != "$KERNEL_STARTED" ]]; then
			outcome="${QEMU_OUTCOME}${QEMU_STOPPED_ON:+ on /$QEMU_STOPPED_ON/}, not a kernel started"
		elif ! LC_ALL=C grep -qxF "$VERDICT" "$after" || LC_ALL=C grep -qE "$NOT_ENFORCED" "$after"; then
			outcome="a kernel started without lockshim's verdict for it"
		fi
		list=$(moklist_of "$dir/$j.fd")
		if [[ -z $cut ]]; then
			echo "# cut $j: QEMU ended before write $k (log $dir/$j.log)" >&2
			failed=$(( failed + 1 ))
		elif (( cut >= total )); then
			echo "# cut $j at write $cut of $total: after the boot's last write, it cut nothing" >&2
			failed=$(( failed + 1 ))
		elif [[ -n $outcome ]]; then
			echo "# cut $j at write $cut of $total: the next boot: $outcome ($after)" >&2
			failed=$(( failed + 1 ))
		elif [[ $list == "$OLD_LIST" ]]; then
			old=$(( old + 1 ))
			echo "# cut $j at write $cut of $total (MokList write from $start): old MokList" >&2
		elif [[ $list == "$new_list" ]]; then
			new=$(( new + 1 ))
			echo "# cut $j at write $cut of $total (MokList write from $start): new MokList" >&2
		else
			echo "# cut $j at write $cut of $total: MokList is neither the old nor the new one: ${list:-none}" >&2
			failed=$(( failed + 1 ))
		fi
	done
	echo "faults: power cut: $FAULTS_CUTS cuts during the MokList write in $(( $(date +%s) - t0 ))s; old list $old, new list $new, anything else $failed"
	(( failed == 0 ))
}

# The release images carry no fault code: efi_fault.c's console line (UTF-16)
# is in the fault images and in neither release image.
release_has_no_fault_code() {
	python3 - build/faults/lockshimx64.efi build/faults/mmx64.efi -- \
		build/lockshimx64.efi build/mmx64.efi <<-'EOF'
		import sys
		marker = "fault: failing call".encode("utf-16-le")
		args = sys.argv[1:]
		faulty, release = args[:args.index("--")], args[args.index("--") + 1:]
		bad = [f for f in faulty if marker not in open(f, "rb").read()]
		bad += [f for f in release if marker in open(f, "rb").read()]
		for f in bad:
		    print(f"# {f}: the fault marker is {'missing' if f in faulty else 'present'}", file=sys.stderr)
		sys.exit(1 if bad else 0)
	EOF
}

# The walks, as make faults runs them whole (tests/qemu/test_faults.sh runs
# the sample as scenarios of their own).
faults_main() {
	local arg part rc=0 t0 suffix=walk
	local -a parts=()
	for arg in "$@"; do
		case $arg in
		--sample) SAMPLE=1 ;;
		normal | revoked | db_ignored | enrollment | power_cut | release) parts+=("$arg") ;;
		*) echo "usage: tests/qemu/faults.sh [--sample] [normal] [revoked] [db_ignored] [enrollment] [power_cut] [release]" >&2; return 2 ;;
		esac
	done
	(( ${#parts[@]} )) || parts=(release normal revoked db_ignored enrollment power_cut)
	(( SAMPLE )) && suffix=sample
	(( SAMPLE )) && FAULTS_CUTS=${FAULTS_CUTS:-2}
	FAULTS_CUTS=${FAULTS_CUTS:-8}
	faults_prepare_logged
	if [[ -n ${PREP_ERROR:-$LOCKSHIM_MISSING} ]]; then
		echo "# ${PREP_ERROR:-$LOCKSHIM_MISSING}" >&2
		for part in "${parts[@]}"; do echo "not ok - faults_$part (setup failed)"; done
		return 1
	fi
	t0=$(date +%s)
	rm -f "$FAULTS_WORK"/*.totals
	for part in "${parts[@]}"; do
		local name
		case $part in
		normal) name=faults_normal_boot_$suffix; walk normal "$name" ;;
		revoked) name=faults_revoked_kernel_$suffix; walk revoked "$name" ;;
		db_ignored) name=faults_db_ignored_$suffix; walk db_ignored "$name" ;;
		enrollment) name=faults_enrollment_$suffix; walk enrollment "$name" ;;
		power_cut) name=faults_power_cut_$suffix; power_cut ;;
		release) name=faults_release_has_no_fault_code; release_has_no_fault_code ;;
		esac
		if (( $? == 0 )); then echo "ok - $name"; else echo "not ok - $name"; rc=1; fi
	done
	# the summary of the walks: calls walked, outcomes, unverified boots, lost keys
	cat "$FAULTS_WORK"/*.totals 2>/dev/null | awk -v secs=$(( $(date +%s) - t0 )) '
		{ for (i = 1; i <= 8; i++) t[i] += $i }
		END {
			printf "faults: %d calls walked in %ds; outcomes: verified boot %d, refused %d, MOK manager again %d, enrolled %d; unverified boots %d; lost keys %d\n",
				t[1], secs, t[2], t[3], t[4], t[5], t[6], t[7]
		}'
	return $rc
}

# faults_prepare with its log: PREP_ERROR says why when it fails.
faults_prepare_logged() {
	PREP_LOG=$FAULTS_WORK/prepare.err
	mkdir -p "$FAULTS_WORK" && : >"$PREP_LOG"
	faults_prepare || PREP_ERROR=${PREP_ERROR:-faults_prepare failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')}
}

SAMPLE=${SAMPLE:-0}
if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	faults_main "$@"
fi
