# shellcheck shell=bash disable=SC1007,SC2034
# Shared helpers for lockshim's QEMU tests. Source it from bash:
#
#   . "$(dirname "$0")/lib.sh"
#
# make_esp IMG SRC ESPPATH [SRC ESPPATH ...]
#     Build a FAT ESP image IMG with mtools holding each SRC at ESPPATH
#     (e.g. EFI/BOOT/BOOTX64.EFI; parent directories are created). The image
#     is sized to fit the files (at least 16 MiB).
#
# run_qemu [options]
#     Boot OVMF (Secure Boot capable CODE, q35 with SMM, TCG, one CPU) with an
#     ESP on virtio-blk and the serial console on stdio, bounded by timeout.
#       --esp IMG          the ESP image (required)
#       --vars FILE        the OVMF VARS file (required); snapshot=on, i.e. left
#                          untouched, unless --persist
#       --persist          let the firmware write FILE
#       --log FILE         clean serial log (ANSI escapes and CRs stripped);
#                          the raw one goes to FILE with .raw appended, QEMU's
#                          own stderr to FILE.err (default build/qemu/logs/run.log)
#       --timeout SECS     kill QEMU after SECS seconds (default 60)
#       --stop REGEX       kill QEMU once REGEX (grep -E) shows on a whole line
#                          (its newline written) of the clean log, after a
#                          short grace for what follows it; may be given
#                          several times (any one stops)
#       --grace SECS       how long to let QEMU run on after a --stop match
#                          (default 0.2)
#       --send-on REGEX TEXT   write TEXT (printf %b escapes) to the serial input
#                          once, the first time REGEX shows in the clean log
#       --answer-chars PASSWORD  answer each "Enter password character N" prompt
#                          (the MOK manager's) with the Nth character of PASSWORD
#       --tee              also show the serial output live (cleaned) on stdout
#       --tpm              attach a fresh TPM 2.0 (swtpm, its state in the run's
#                          temporary directory, ended with the run) on the TPM
#                          TIS device
#       --firmware-only    the boot ends before any OS starts (a refusal, the
#                          MOK manager, a stop on the kernel's EFI stub): a
#                          fresh TPM 1.2 (swtpm) on the TPM TIS device, so that
#                          OVMF's TPM probe ends at once. With no device there,
#                          the TIS registers read 0, which OVMF takes for a TPM
#                          and polls (MicroSecondDelay on the ACPI PM timer)
#                          for two 750 ms timeouts, TPM 1.2's then TPM 2.0's:
#                          about 1.1 s of CPU a boot. OVMF installs no TCG2
#                          protocol for a TPM 1.2, and TCG2 is the only one
#                          lockshim, the MOK manager and the kernel's EFI stub
#                          ask for: they run as without a TPM (the same log
#                          and the same variables afterwards, measured; a
#                          log with lockshim's $TPM_SAID fails the run,
#                          status 1). Not for a boot that runs an OS, which
#                          would see the chip. Not with --tpm.
#       --iommu            an emulated Intel IOMMU (intel-iommu, DMA and
#                          interrupt remapping) in front of every PCI device;
#                          the kernel takes it with intel_iommu=on
#       --removable        the ESP on a USB stick the firmware calls removable
#                          (usb-storage removable=on), not a virtio disk
#       --sata             q35's AHCI controller (ide.0 ... ide.5, for a disk
#                          given after --); without it the machine has none,
#                          nor a PS/2 controller (QEMU_MACHINE)
#       -- ARGS...         extra QEMU arguments
#     Sets QEMU_OUTCOME to "stopped" (a --stop pattern matched), "exited"
#     (QEMU ended by itself: shutdown, reset with -no-reboot, debug-exit) or
#     "timeout"; QEMU_RC to QEMU's exit status when it exited; QEMU_STOPPED_ON
#     to the pattern that matched; QEMU_ELAPSED to wall seconds; LOG to the
#     clean log; adds QEMU_ELAPSED to QEMU_SECONDS. Returns 0, except 2 on
#     timeout and 1 when QEMU failed to run (bad arguments, missing files:
#     non-zero status with a message on stderr).
#     At most LOCKSHIM_JOBS (default: the cores) QEMUs run at a time on this machine,
#     whoever starts them: each run holds one of that many lock files in the
#     cache directory (a slot) while QEMU runs.
#
# qemu_outcome NAME [WHAT]
#     Say on stderr how the last run_qemu ended (`# NAME: QEMU stopped on
#     /PATTERN/ after 7.1s`); after a timeout also `FAIL: WHAT (default: no
#     stop condition) before the timeout` and the log's tail, and return 1;
#     likewise after a stop on QEMU_CRASH (`FAIL: CPU exception in firmware
#     context (a crash)`) and when QEMU did not run at all (outcome error:
#     a missing ESP, VARS or firmware; run_qemu said which).
#
# expect_log [-F] PATTERN [LOG]        PATTERN (ERE, or fixed with -F) is in LOG
# expect_no_log [-F] PATTERN [LOG]     PATTERN is not in LOG
# expect_order [-F] PAT1 PAT2 [LOG]    both are in LOG, the first line that
#                                      matches PAT1 before the first for PAT2
#     LOG defaults to $LOG (the last run_qemu). On failure they print what was
#     (not) expected and the tail of the log to stderr, and return 1.
#
# expect_lockshim_returned STATUS [LOG]
#     The boot option the firmware started lockshim as (the last "BdsDxe:
#     starting BootNNNN" before lockshim's first banner) came back with
#     STATUS ("Security Violation"): its own "failed to start" line, not
#     any option's (OVMF's EFI Internal Shell, tried next under Secure
#     Boot, fails with a Security Violation of its own).
#
# clean_serial [--live]       filter: strip ANSI escapes and CRs (stdin->stdout)
# sign_efi KEYNAME IN OUT      sign IN with build/pki/KEYNAME.{key,crt}
#                              (scripts/sign.sh: any old signature removed)
# unsign_efi IN OUT            copy IN to OUT with every signature removed
#
# QEMU_BOOTS_LOG=FILE (tests/qemu/run): where the time goes, appended to
# FILE: `boot ASKED STARTED ENDED LOG CPU` for each run_qemu (when it asked
# for a slot, when QEMU started and ended, seconds since the epoch; the CPU
# seconds of its QEMU), and
# `cpu NAME: Ts, QEMU Qs; CPU: QEMU Cs, all As` for each scenario: its
# wall and QEMU seconds, and the CPU seconds its QEMUs and all of it used
# (these hold on a busy machine, where wall times do not). QEMU_CPU is the
# sum of the first (run_qemu counts it only then).
#
# QEMU_SERIAL_TIMES=1: where a boot's time goes: each line of its serial
# log also in LOG.raw.times, after the CPU seconds QEMU had used when it
# came (tests/qemu/watch_serial.py).
#
# Variables: LOCKSHIM_ROOT (the repository), QEMU_BUILD (build/qemu),
# LOCKSHIM_CACHE (the cache directory), OVMF_CODE, OVMF_VARS_BLANK,
# QEMU_CRASH (what OVMF prints for a CPU exception in firmware context, a
# loader crashing, before it hangs: a --stop pattern for every run),
# FIRMWARE_REFUSED (the firmware's line after a loader returned
# EFI_SECURITY_VIOLATION).

LOCKSHIM_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
QEMU_BUILD=${QEMU_BUILD:-$LOCKSHIM_ROOT/build/qemu}
LOCKSHIM_CACHE=${LOCKSHIM_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/lockshim}
OVMF_CODE=${OVMF_CODE:-/usr/share/OVMF/OVMF_CODE_4M.secboot.fd}
OVMF_VARS_BLANK=${OVMF_VARS_BLANK:-/usr/share/OVMF/OVMF_VARS_4M.fd}
QEMU=${QEMU:-qemu-system-x86_64}
# Guest memory, MiB: what the Debian guests need with room to spare. OVMF
# starts about 0.15 s of TCG sooner with 256 than with 1024 (its memory
# map and page tables), in each of some 220 boots.
QEMU_MEMORY=${QEMU_MEMORY:-256}
# The machine: q35 with SMM (OVMF's Secure Boot build needs it), without
# the AHCI and PS/2 (i8042) controllers q35 has by default, which no test
# uses but the rawio scenarios' SATA disk (run_qemu --sata): in every boot
# the firmware and the test kernel probed them, the kernel then waiting
# on six empty SATA links and a PS/2 mouse (about 0.35 s of CPU in a boot
# of the companion kernel, 7 %, and its wait for the links).
QEMU_MACHINE=${QEMU_MACHINE:-q35,smm=on,sata=off,i8042=off}
# QEMU guests at a time on this machine: one a core (a TCG guest keeps one
# busy; a third guest on two cores was measured slower: 553 s against 547 s).
LOCKSHIM_JOBS=${LOCKSHIM_JOBS:-$(nproc)}
QEMU_CRASH='!!!! X64 Exception Type'
# What OVMF's boot manager prints when the image of a boot option returned
# EFI_SECURITY_VIOLATION: lockshim refused and returned (rather than hung
# or crashed after its refusal line). A refusal boot stops on it.
FIRMWARE_REFUSED='BdsDxe: failed to start Boot[0-9A-F]{4} .*: Security Violation'
# What lockshim says only with a TPM ("lockshim: TPM: measuring into PCR 4,
# 7 and 14", its warnings about measurements): never in a boot without one,
# nor in one run_qemu --firmware-only.
TPM_SAID='^lockshim: .*(TPM|PCR|[Mm]easur)'
# The MOK manager's confirmation of a MokNew (answered with 'yes\r').
MM_YES_ENROLL='Enroll these keys in MokList \(trusted\)\? Type'
# The MOK manager's menu, whose 3 continues booting (as it does by itself
# after 60 s, which a test need not wait out).
MM_MENU_CHOICE='Choice \(continues booting after'

# malformed_esl OUT: one SHA-256 signature list whose SignatureSize (16 + 20)
# does not divide its 48 bytes of entries: a deny list that cannot be parsed
# whole.
malformed_esl() {
	python3 -c 'import sys, uuid, struct
sys.stdout.buffer.write(uuid.UUID("c1c41626-504c-4092-aca9-41f936934328").bytes_le +
    struct.pack("<III", 28 + 48, 0, 16 + 20) + bytes(48))' >"$1"
}

# ---- ESP images --------------------------------------------------------------

make_esp() {
	local img=$1; shift
	if (( $# == 0 || $# % 2 )); then
		echo "make_esp: usage: make_esp IMG SRC ESPPATH [SRC ESPPATH ...]" >&2
		return 1
	fi
	local -a srcs=() dsts=()
	local total=0 src dst size
	while (( $# )); do
		src=$1 dst=${2#/}; shift 2
		dst=${dst//\\//}
		if [[ ! -f $src ]]; then
			echo "make_esp: $src: no such file" >&2
			return 1
		fi
		size=$(stat -c %s "$src")
		# Round each file up to a 4 KiB cluster.
		total=$(( total + (size + 4095) / 4096 * 4096 ))
		srcs+=("$src") dsts+=("$dst")
	done
	# Room for the FAT, directories and slack: a quarter more plus 2 MiB,
	# at least 16 MiB (mformat picks FAT16 at these sizes).
	local bytes=$(( total + total / 4 + 2 * 1024 * 1024 ))
	(( bytes >= 16 * 1024 * 1024 )) || bytes=$(( 16 * 1024 * 1024 ))
	local sectors=$(( (bytes + 511) / 512 ))
	mkdir -p "$(dirname "$img")"
	rm -f "$img"
	mformat -i "$img" -C -T "$sectors" -v ESP :: || { echo "make_esp: mformat failed" >&2; return 1; }
	local i part dir
	local -a parts
	for i in "${!srcs[@]}"; do
		dst=${dsts[$i]}
		dir=
		IFS=/ read -ra parts <<<"$(dirname "$dst")"
		for part in "${parts[@]}"; do
			[[ $part == . || -z $part ]] && continue
			dir+=/$part
			mmd -D s -i "$img" "::$dir" 2>/dev/null || true
		done
		mcopy -o -i "$img" "${srcs[$i]}" "::/$dst" ||
			{ echo "make_esp: mcopy ${srcs[$i]} -> $dst failed" >&2; return 1; }
	done
}

# ---- logs --------------------------------------------------------------------

# Clean a serial log, stdin to stdout: cursor positioning (ESC[r;cH, which
# OVMF uses to redraw a line) and CRs that do not end a line become newlines;
# other ANSI/VT100 escapes (CSI sequences, charset selections, keypad modes)
# and line-ending CRs are dropped; runs of blank lines are squeezed.
clean_serial() {
	local -a sedu=()
	# --live: unbuffered, for showing a console as it runs.
	[[ ${1:-} == --live ]] && sedu=(-u)
	LC_ALL=C sed "${sedu[@]}" -E \
		-e 's/\x1b\[[0-9;]*[Hf]/\n/g' \
		-e 's/\x1b\[[0-?]*[ -/]*[@-~]//g' \
		-e 's/\x1b[()][A-Za-z0-9]//g' \
		-e 's/\x1b[=>78cDEHM]//g' \
		-e 's/\x1b//g' \
		-e 's/\r+$//' \
		-e 's/\r/\n/g' | cat -s
}

# _log_tail LOG: its last lines on stderr (LOG_TAIL_SHOWN remembers it, so
# that the scenario runner does not show them twice).
_log_tail() {
	local log=$1
	LOG_TAIL_SHOWN=$log
	echo "---- last 25 lines of $log ----" >&2
	tail -n 25 "$log" | sed 's/^/| /' >&2
	if [[ -s $log.err ]]; then
		echo "---- QEMU stderr ($log.err) ----" >&2
		tail -n 10 "$log.err" | sed 's/^/| /' >&2
	fi
	echo "----" >&2
}

_expect() {
	local want=$1; shift
	local -a gopt=(-E) ; local kind=regex
	if [[ ${1:-} == -F ]]; then gopt=(-F); kind=text; shift; fi
	local pat=${1:?pattern}; local log=${2:-${LOG:-}}
	if [[ -z $log || ! -f $log ]]; then
		echo "expect: no log file (${log:-unset})" >&2
		return 1
	fi
	if LC_ALL=C grep -q "${gopt[@]}" -e "$pat" -- "$log"; then
		[[ $want == yes ]] && return 0
		echo "FAIL: unexpected $kind '$pat' found in $log:" >&2
		LC_ALL=C grep -n "${gopt[@]}" -e "$pat" -- "$log" | head -n 5 | sed 's/^/| /' >&2
		_log_tail "$log"
		return 1
	fi
	[[ $want == no ]] && return 0
	echo "FAIL: expected $kind '$pat' not found in $log" >&2
	_log_tail "$log"
	return 1
}
expect_log() { _expect yes "$@"; }
expect_no_log() { _expect no "$@"; }

expect_order() {
	local -a gopt=(-E)
	if [[ ${1:-} == -F ]]; then gopt=(-F); shift; fi
	local p1=${1:?pattern} p2=${2:?pattern} log=${3:-${LOG:-}}
	if [[ -z $log || ! -f $log ]]; then
		echo "expect_order: no log file (${log:-unset})" >&2
		return 1
	fi
	local n1 n2
	n1=$(LC_ALL=C grep -n -m1 "${gopt[@]}" -e "$p1" -- "$log" | cut -d: -f1)
	n2=$(LC_ALL=C grep -n -m1 "${gopt[@]}" -e "$p2" -- "$log" | cut -d: -f1)
	if [[ -z $n1 || -z $n2 ]]; then
		local missing=
		[[ -n $n1 ]] || missing+=" '$p1'"
		[[ -n $n2 ]] || missing+=" '$p2'"
		echo "FAIL: expected '$p1' then '$p2' in $log; not found:$missing" >&2
		_log_tail "$log"
		return 1
	fi
	if (( n1 >= n2 )); then
		echo "FAIL: expected '$p1' (line $n1) before '$p2' (line $n2) in $log" >&2
		_log_tail "$log"
		return 1
	fi
}

expect_lockshim_returned() {
	local status=$1 log=${2:-$LOG} said
	said=$(awk '
		!banner && /^BdsDxe: starting Boot[0-9A-F][0-9A-F][0-9A-F][0-9A-F] / { option = $3 }
		!banner && /^lockshim [0-9]/ { banner = 1; if (option == "") exit }
		banner && index($0, "BdsDxe: failed to start " option " ") == 1 { print; exit }
		END { if (!banner || option == "") print "no boot option started lockshim"
			else print "lockshim ran as " option ", which the firmware never said came back" }
	' "$log" | head -n 1)
	[[ $said == "BdsDxe: failed to start "*": $status" ]] && return 0
	echo "FAIL: wanted lockshim's own option back with $status; $said (log: $log)" >&2
	return 1
}

# ---- QEMU --------------------------------------------------------------------

# _qemu_slot_open WAIT: lock one of the LOCKSHIM_JOBS slot files within WAIT
# seconds; QEMU_SLOT_FD is then the descriptor that holds it (close it to
# free the slot; not called from a $(...) subshell, whose end would close
# it). Slot 1 is qemu.lock, the one lock of the days of one QEMU at a time,
# so that an older checkout's runs still count. The wait is one process,
# tests/qemu/slot_wait.py, locking the descriptors opened here.
_qemu_slot_open() {
	local fd i file won
	local -a fds=()
	for (( i = 1; i <= LOCKSHIM_JOBS; i++ )); do
		file=$LOCKSHIM_CACHE/qemu.lock
		(( i == 1 )) || file=$LOCKSHIM_CACHE/qemu-$i.lock
		exec {fd}>"$file"
		fds+=("$fd")
	done
	won=$(python3 "$LOCKSHIM_ROOT/tests/qemu/slot_wait.py" "$1" "${fds[@]}")
	for fd in "${fds[@]}"; do
		[[ $fd == "$won" ]] || exec {fd}>&-
	done
	[[ -n $won ]] || return 1
	QEMU_SLOT_FD=$won
}

# _children_cpu: SELF_CPU and CHILD_CPU, the CPU seconds (user + system)
# of this shell and of its waited-for children (QEMU_BOOTS_LOG). `times`
# runs here: in a $(...) subshell it would count that subshell's.
_children_cpu() {
	local f=${TMPDIR:-/tmp}/lockshim-times.$BASHPID
	times >"$f"
	read -r SELF_CPU CHILD_CPU < <(awk '{ split($0, f, /[ ms]+/); t[NR] = f[1] * 60 + f[2] + f[3] * 60 + f[4] }
		END { print t[1], t[2] }' "$f")
	rm -f "$f"
}

run_qemu() {
	local esp= vars= persist=0 log=$QEMU_BUILD/logs/run.log timeout=60 tee=0 grace=0.2 tpm=0
	local -a stops=() sends=() extra=() iommu=() disk=(-device virtio-blk-pci,drive=esp)
	local machine=$QEMU_MACHINE
	local answer_chars=
	while (( $# )); do
		case $1 in
		--esp) esp=$2; shift 2 ;;
		--vars) vars=$2; shift 2 ;;
		--persist) persist=1; shift ;;
		--log) log=$2; shift 2 ;;
		--timeout) timeout=$2; shift 2 ;;
		--stop) stops+=("$2"); shift 2 ;;
		--grace) grace=$2; shift 2 ;;
		--send-on) sends+=("$2" "$3"); shift 3 ;;
		--answer-chars) answer_chars=$2; shift 2 ;;
		--tee) tee=1; shift ;;
		--tpm) tpm=2; shift ;;
		--firmware-only) tpm=1; shift ;;
		--iommu) iommu=(-device "intel-iommu,intremap=on"); shift ;;
		--removable) disk=(-device qemu-xhci -device usb-storage,drive=esp,removable=on); shift ;;
		--sata) machine=${machine/,sata=off/}; shift ;;
		--) shift; extra=("$@"); break ;;
		*) echo "run_qemu: unknown option $1" >&2; return 1 ;;
		esac
	done
	# The previous run's log goes first: a run that cannot start leaves
	# nothing a check could mistake for its own.
	QEMU_OUTCOME=error QEMU_RC= QEMU_STOPPED_ON= QEMU_ELAPSED= LOG=$log
	rm -f "$log" "$log.raw" "$log.err" "$log.raw.times"
	if [[ ! -f $esp ]]; then echo "run_qemu: ESP image '${esp}' missing" >&2; return 1; fi
	if [[ ! -f $vars ]]; then echo "run_qemu: VARS file '${vars}' missing" >&2; return 1; fi
	if [[ ! -f $OVMF_CODE ]]; then echo "run_qemu: $OVMF_CODE missing (install ovmf)" >&2; return 1; fi
	if (( tpm )) && ! command -v swtpm >/dev/null; then
		echo "run_qemu: --tpm, --firmware-only: swtpm missing (scripts/bootstrap.sh installs it)" >&2; return 1
	fi

	mkdir -p "$(dirname "$log")" "$LOCKSHIM_CACHE"
	local raw=$log.raw work
	work=$(mktemp -d "${TMPDIR:-/tmp}/lockshim-qemu.XXXXXX") || return 1
	: >"$raw"; : >"$log"

	local snap=,snapshot=on
	(( persist )) && snap=
	local -a cmd=(
		"$QEMU" -accel tcg -smp 1 -m "$QEMU_MEMORY"
		-machine "$machine"
		-global driver=cfi.pflash01,property=secure,value=on
		-drive "if=pflash,format=raw,unit=0,readonly=on,file=$OVMF_CODE"
		-drive "if=pflash,format=raw,unit=1,file=$vars$snap"
		-nodefaults -display none -serial stdio -no-reboot
		"${iommu[@]}" # before the PCI devices it translates for
		-drive "if=none,id=esp,format=raw,file=$esp"
		"${disk[@]}"
		-device pci-testdev,membar=65536
		-device isa-debug-exit,iobase=0xf4,iosize=0x04
		"${extra[@]}"
	)

	local lockfd wait0=$EPOCHREALTIME
	if _qemu_slot_open $(( timeout + 120 )); then
		lockfd=$QEMU_SLOT_FD
	else
		echo "run_qemu: all $LOCKSHIM_JOBS QEMU slots ($LOCKSHIM_CACHE/qemu*.lock) stayed busy" >&2
		rm -rf "$work"; return 1
	fi

	# the TPM once the slot is ours: nothing to end on the way out before
	local tpm_pid= i
	if (( tpm )); then
		local -a version=()
		(( tpm == 2 )) && version=(--tpm2)
		swtpm socket "${version[@]}" --tpmstate "dir=$work" --ctrl "type=unixio,path=$work/swtpm.sock" \
			--terminate --log "file=$work/swtpm.log" &
		tpm_pid=$!
		# its socket comes within some 10 ms; the slot is held meanwhile
		for (( i = 0; i < 500; i++ )); do [[ -S $work/swtpm.sock ]] && break; sleep 0.01; done
		cmd+=(-chardev "socket,id=chrtpm,path=$work/swtpm.sock"
			-tpmdev emulator,id=tpm0,chardev=chrtpm -device tpm-tis,tpmdev=tpm0)
	fi

	# Serial input comes from a FIFO that we hold open read-write (so neither
	# side blocks on open, and QEMU never sees EOF).
	mkfifo "$work/in"
	local infd
	exec {infd}<>"$work/in"

	local t0 t1
	t0=$(date +%s.%N)
	timeout -k 5 "$timeout" "${cmd[@]}" <"$work/in" >"$raw" 2>"$log.err" &
	local qpid=$! tpid=
	if (( tee )); then
		tail -n +1 -f --pid="$qpid" "$raw" | clean_serial --live &
		tpid=$!
	fi

	# The watcher: send input, stop QEMU on a match (tests/qemu/watch_serial.py).
	local pat
	local -a watch=()
	for pat in "${stops[@]}"; do watch+=(--stop "$pat"); done
	for (( i = 0; i < ${#sends[@]}; i += 2 )); do watch+=(--send-on "${sends[i]}" "${sends[i+1]}"); done
	[[ -z $answer_chars ]] || watch+=(--answer-chars "$answer_chars")
	python3 "$LOCKSHIM_ROOT/tests/qemu/watch_serial.py" "$raw" "$work/in" "$work/stopped" \
		"$qpid" "$grace" "${watch[@]}" &
	local wpid=$!

	# Ctrl-C or TERM: take QEMU down with us (timeout runs it in its own
	# process group, out of the terminal's reach).
	local saved_traps
	saved_traps=$(trap -p INT TERM)
	# shellcheck disable=SC2064  # expand the PIDs now
	trap "kill -TERM $qpid $wpid ${tpid} 2>/dev/null; exit 130" INT TERM

	local rc=0 cpu0 boot_cpu=
	[[ -z ${QEMU_BOOTS_LOG:-} ]] || { _children_cpu; cpu0=$CHILD_CPU; }
	wait "$qpid" || rc=$?
	if [[ -n ${QEMU_BOOTS_LOG:-} ]]; then
		_children_cpu
		boot_cpu=$(awk -v b="$cpu0" -v c="$CHILD_CPU" 'BEGIN { printf "%.2f", c - b }')
		QEMU_CPU=$(awk -v a="${QEMU_CPU:-0}" -v b="$boot_cpu" 'BEGIN { printf "%.1f", a + b }')
	fi
	kill "$wpid" 2>/dev/null
	wait "$wpid" 2>/dev/null
	if [[ -n $tpid ]]; then wait "$tpid" 2>/dev/null; echo; fi
	trap - INT TERM
	eval "$saved_traps"
	t1=$(date +%s.%N)
	exec {infd}>&-
	flock -u "$lockfd"; exec {lockfd}>&-

	if [[ -n $tpm_pid ]]; then kill "$tpm_pid" 2>/dev/null; wait "$tpm_pid" 2>/dev/null; fi
	clean_serial <"$raw" >"$log"
	QEMU_ELAPSED=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }')
	[[ -z ${QEMU_BOOTS_LOG:-} ]] || echo "boot $wait0 $t0 $t1 $log $boot_cpu" >>"$QEMU_BOOTS_LOG"
	QEMU_SECONDS=$(awk -v a="${QEMU_SECONDS:-0}" -v b="$QEMU_ELAPSED" 'BEGIN { printf "%.1f", a + b }')
	if [[ -f $work/stopped ]]; then
		QEMU_OUTCOME=stopped
		QEMU_STOPPED_ON=$(cat "$work/stopped")
	elif (( rc == 124 || rc == 137 )); then
		QEMU_OUTCOME=timeout
	else
		QEMU_OUTCOME=exited
		QEMU_RC=$rc
	fi
	rm -rf "$work"
	if (( tpm == 1 )) && LC_ALL=C grep -qE "$TPM_SAID" "$log"; then
		echo "run_qemu: --firmware-only, yet lockshim saw a TPM (log: $log)" >&2
		return 1
	fi
	if [[ $QEMU_OUTCOME == timeout ]]; then
		echo "run_qemu: timed out after ${timeout}s (log: $log)" >&2
		return 2
	fi
	# A non-zero status with something on stderr: QEMU itself failed (bad
	# option, missing file). isa-debug-exit statuses come with empty stderr.
	if [[ $QEMU_OUTCOME == exited ]] && (( rc != 0 )) && [[ -s $log.err ]]; then
		echo "run_qemu: QEMU failed (status $rc): $(head -n 3 "$log.err")" >&2
		return 1
	fi
	return 0
}

qemu_outcome() {
	echo "# $1: QEMU $QEMU_OUTCOME${QEMU_STOPPED_ON:+ on /$QEMU_STOPPED_ON/} after ${QEMU_ELAPSED}s" >&2
	if [[ $QEMU_OUTCOME == stopped && $QEMU_STOPPED_ON == "$QEMU_CRASH" ]]; then
		echo "FAIL: CPU exception in firmware context (a crash)" >&2
	elif [[ $QEMU_OUTCOME == timeout ]]; then
		echo "FAIL: ${2:-no stop condition} before the timeout" >&2
	elif [[ $QEMU_OUTCOME == error ]]; then
		# run_qemu said why on stderr; there is no log of this run
		echo "FAIL: QEMU did not run" >&2
		return 1
	else
		return 0
	fi
	_log_tail "$LOG"
	return 1
}

# ---- signing -----------------------------------------------------------------

# sign_efi KEYNAME IN OUT: sign IN with build/pki/KEYNAME.{key,crt} into OUT.
sign_efi() {
	local name=$1 in=$2 out=$3 pki=${PKI_DIR:-$LOCKSHIM_ROOT/build/pki}
	"$LOCKSHIM_ROOT/scripts/sign.sh" --key "$pki/$name.key" --cert "$pki/$name.crt" --output "$out" "$in"
}

# unsign_efi IN OUT: copy IN to OUT without any signature.
unsign_efi() {
	local in=$1 out=$2
	cp "$in" "$out.tmp" || return 1
	# sbattach --remove drops one signature per call.
	local n
	for n in 1 2 3 4 5 6 7 8; do
		sbattach --remove "$out.tmp" >/dev/null 2>&1 || break
	done
	if sbverify --list "$out.tmp" 2>/dev/null | grep 'signature [0-9]' >/dev/null; then
		echo "unsign_efi: $out still carries a signature" >&2
		rm -f "$out.tmp"; return 1
	fi
	mv "$out.tmp" "$out"
}
