# shellcheck shell=bash disable=SC1007,SC2034  # its variables are read by the files that source it
# What the measured-boot scenarios share (test_measured_boot.sh and
# measured-boot-shim.sh source it): mok.sh's preparation and lockdown.sh's
# companion kernel, the guest that prints the PCRs and the event log, and
# the checks of that log (see test_measured_boot.sh for what they prove).
#
# measured_prepare         mok_prepare, lockdown_prepare, the VARS stores and
#                          images of test_measured_boot.sh's scenarios
# boot_tpm NAME VARS KERNEL    boot_mok with a fresh swtpm, then tpm_collect
# tpm_collect NAME         the guest's log in $BOOT_LOGS/NAME.tpmlog, its PCRs
#                          in TPM_PCR[4|7|14]
# expect_replay NAME       tpm2_eventlog parses the log, both replays equal
#                          the PCRs; writes $BOOT_LOGS/NAME.events
# expect_event, expect_kernel_measured, expect_authority, expect_mok_list,
# expect_prediction, count_events: below
# EFIVAR_STEPS             guest steps printing the Boot Loader Interface's
#                          variables and LockshimBootLog; guest_efivars DIR
#                          makes an efivarfs copy of them; loader_var,
#                          expect_loader_var, expect_sdboot_loader_vars and
#                          expect_status (`lockshim status` over it): below
#
# Beside shim 16.1 (docs/measured-boot.md): Debian's chain (firmware,
# first stage, Debian's signed GRUB, Debian's signed kernel, the guest
# above) with lockshim (Debian's vendor certificate and dbx) or Debian's
# shim 16.1 (shim-unsigned, db-signed) as the first stage:
#
# shim_compare_prepare     both first stages, GRUB, Debian's kernel as
#                          shipped, a rogue-signed kernel, the grub.cfgs
#                          (plain: boot Debian's kernel; refused: first ask
#                          about the rogue kernel, then boot Debian's), the
#                          guest initramfs, in SHIM_CMP; sets PREP_ERROR
#                          when it cannot
# shim_compare_boot NAME FIRST CFG
#                          FIRST (lockshim | shim) starts GRUB with CFG
#                          (plain | refused), swtpm attached; the log is
#                          $BOOT_LOGS/NAME.log, then tpm_collect NAME
# shim_compare_after_first_stage NAME
#                          the digests of PCR 4's application events after
#                          the first one (the first stage's), one a line
# shim_compare_pcr_events NAME PCR
#                          PCR's events (type, digest, data), one a line

# shellcheck source=tests/qemu/mok.sh
. "$(dirname "${BASH_SOURCE[0]}")/mok.sh" # cds to the repository
# shellcheck source=tests/qemu/lockdown.sh
. tests/qemu/lockdown.sh # the companion kernel and its probe
# shellcheck source=tests/qemu/debian-chain.sh
. tests/qemu/debian-chain.sh

MOK_WORK=$QEMU_BUILD/measured
DB_GUID=d719b2cb-3d3a-4596-a3bc-dad00e67656f
EV_IPL=0x0000000d
EV_APPLICATION=0x80000003
EV_AUTHORITY=0x800000e0
TPM_LOG=tests/qemu/tpm_log.py
VARS_HASH= VARS_DB_HASH= VARS_SDBOOT= VARS_SDBOOT_RETURN=
SDBOOT_ESP_PATH='\EFI\systemd\systemd-bootx64.efi'
FALLBACK_LABEL='Acme measured'
FALLBACK_PARTUUID=6c6f636b-7368-6662-9d1a-000000000004

# The guest's report: the PCRs, then the log.
TPM_STEPS=$(cat <<'EOS'
step mount -t securityfs securityfs /sys/kernel/security
for p in 4 7 14; do echo "TPM-PCR $p $(cat /sys/class/tpm/tpm0/pcr-sha256/$p)"; done
base64 /sys/kernel/security/tpm0/binary_bios_measurements | sed 's/^/TPM-B64 /'
echo TPM-LOG-END
EOS
)

# The guest's variables of the Boot Loader Interface's GUID and lockshim's
# (LockshimBootLog): each efivarfs file (4 bytes of attributes, then the
# data) in base64, one EFIVAR-B64 line per line of it, for guest_efivars.
EFIVAR_STEPS=$(cat <<'EOS'
for f in /sys/firmware/efi/efivars/*-4a67b082-0a4c-41cf-b6c7-440b29bb8c4f \
	/sys/firmware/efi/efivars/*-fa4589c8-983f-4879-98de-41989578e75d; do
	[ -e "$f" ] && base64 "$f" | sed "s/^/EFIVAR-B64 ${f##*/} /"
done
echo EFIVAR-END
EOS
)
LOADER_GUID=4a67b082-0a4c-41cf-b6c7-440b29bb8c4f

measured_prepare() {
	mok_prepare
	[[ -z $PREP_ERROR && -z $LOCKSHIM_MISSING ]] || return 0
	command -v swtpm >/dev/null && command -v tpm2_eventlog >/dev/null || {
		PREP_ERROR="swtpm or tpm2_eventlog missing: run scripts/bootstrap.sh (swtpm, tpm2-tools)"
		return 0
	}
	local hash
	hash=$(build/lockshim hash "$BOOT_WORK/companion-unsigned.efi") &&
		_prep "MokList holding the unsigned kernel's hash" \
			python3 "$TPM_LOG" sha256-esl "$hash" "$MOK_WORK/kernel-hash.esl" &&
		_prep "MokListRT's vendor list" \
			python3 "$TPM_LOG" x509-esl "$PKI/vendor.der" "$MOK_WORK/vendor.esl" &&
		_prep "db's hash list, as vars.sh --db-hash writes it" \
			hash-to-efi-sig-list "$BOOT_WORK/companion-unsigned.efi" "$MOK_WORK/db-hash.esl" || return 0
	VARS_HASH=$(mok_variant measured-hash --var "MokList:$SHIM_GUID:0x3:$MOK_WORK/kernel-hash.esl" \
		2>>"$PREP_LOG") || PREP_ERROR="VARS with the kernel's hash in MokList: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
	VARS_DB_HASH=$(mok_variant measured-db-hash --db-hash "$BOOT_WORK/companion-unsigned.efi" \
		2>>"$PREP_LOG") || PREP_ERROR="VARS with the kernel's hash in db: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
	sdboot_prepare
	# sdboot_return_no_loader_write: systemd-boot's entry refused, lockshim
	# returns, and the firmware goes on to Boot0001, a db-signed kernel
	printf '\x00\x00\x01\x00' >"$MOK_WORK/BootOrder-0000-0001.bin"
	_prep "the kernel's Boot0001" python3 tests/qemu/mkloadoption.py "$MOK_WORK/return-Boot0001.bin" \
		kernel '\EFI\debian\vmlinuz-db.efi' 'initrd=\EFI\debian\initrd.img console=ttyS0 panic=-1' &&
		VARS_SDBOOT_RETURN=$(tests/qemu/vars.sh --variant measured-sdboot-return \
			--var "Boot0000:$GLOBAL_GUID:0x7:$MOK_WORK/sdboot-Boot0000.bin" \
			--var "Boot0001:$GLOBAL_GUID:0x7:$MOK_WORK/return-Boot0001.bin" \
			--var "BootOrder:$GLOBAL_GUID:0x7:$MOK_WORK/BootOrder-0000-0001.bin" "$PKI" \
			2>>"$PREP_LOG" | tail -n1) && [[ -s $VARS_SDBOOT_RETURN ]] ||
		PREP_ERROR="VARS for systemd-boot, then a kernel: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
	# tpm_fallback_kernel: a CSV as Debian writes its own (UCS-2, no byte
	# order mark, LF) naming the vendor-signed companion kernel beside it
	printf 'kernel.efi,%s,console=ttyS0 panic=-1,measured fallback\n' "$FALLBACK_LABEL" |
		iconv -f UTF-8 -t UTF-16LE >"$MOK_WORK/fallback.csv" ||
		PREP_ERROR="the fallback's BOOTX64.CSV (iconv) failed"
	[[ -z $PREP_ERROR ]] && lockdown_prepare &&
		_prep "launch.efi with .sbat" build/lockshim add-sbat tests/guest/sbat.csv \
			"$GUEST/launch.efi" "$MOK_WORK/launch-sbat.efi" &&
		_prep "vendor-signed launch.efi" sign_efi vendor "$MOK_WORK/launch-sbat.efi" \
			"$MOK_WORK/launch-vendor.efi"
	LD_RUN_OPTS=(--tpm)
	# Beside shim 16.1: what it cannot build fails that scenario alone
	[[ -z $PREP_ERROR ]] || return 0
	shim_compare_prepare
	SHIM_CMP_ERROR=$PREP_ERROR PREP_ERROR=
}

# Debian's systemd-boot, vendor-signed, named by Boot0000's optional data;
# MokList holds the MOK certificate.
sdboot_prepare() {
	local dir
	dir=$(tests/qemu/debian-package.sh systemd-boot-efi \
		usr/lib/systemd/boot/efi/systemd-bootx64.efi 2>>"$PREP_LOG") ||
		{ PREP_ERROR="systemd-boot-efi (tests/qemu/debian-package.sh) failed"; return 0; }
	_prep "vendor-signed systemd-boot" sign_efi vendor "$dir/systemd-bootx64.efi" \
		"$MOK_WORK/systemd-boot.efi" &&
		_prep "systemd-boot's Boot0000" python3 tests/qemu/mkloadoption.py \
			"$MOK_WORK/sdboot-Boot0000.bin" lockshim '\EFI\lockshim\lockshimx64.efi' \
			"$SDBOOT_ESP_PATH" || return 0
	VARS_SDBOOT=$(tests/qemu/vars.sh --variant measured-sdboot \
		--var "Boot0000:$GLOBAL_GUID:0x7:$MOK_WORK/sdboot-Boot0000.bin" \
		--var "BootOrder:$GLOBAL_GUID:0x7:$MOK_WORK/BootOrder.bin" \
		--var "MokList:$SHIM_GUID:0x3:$PKI/mok.esl" "$PKI" 2>>"$PREP_LOG" | tail -n1) &&
		[[ -s $VARS_SDBOOT ]] || PREP_ERROR="VARS for systemd-boot: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"
}

# sdboot_esp NAME ID ENTRY STEPS [SRC ESPPATH]...: $MOK_WORK/NAME.img, an
# ESP with lockshim, systemd-boot booting ID at once, the Type #1 entry
# text ENTRY as loader/entries/ID.conf, a mokutil guest running STEPS as
# \EFI\debian\initrd.img ($MOK_WORK/NAME-initrd.img), and the SRC files.
sdboot_esp() {
	local name=$1 id=$2 entry=$3 steps=$4 w=$MOK_WORK
	shift 4
	printf 'timeout 0\ndefault %s*\neditor no\n' "$id" >"$w/$name-loader.conf"
	printf '%s' "$entry" >"$w/$name-entry.conf"
	printf '%s\n' "$steps" >"$w/$name.steps"
	tests/initramfs/mokutil-guest.sh --base "$w/mokutil-guest.img" --steps "$w/$name.steps" \
		"$w/$name-initrd.img" >/dev/null &&
		make_esp "$w/$name.img" "$BOOT_WORK/lockshim-db.efi" EFI/lockshim/lockshimx64.efi \
			"$w/systemd-boot.efi" EFI/systemd/systemd-bootx64.efi \
			"$w/$name-loader.conf" loader/loader.conf "$w/$name-entry.conf" "loader/entries/$id.conf" \
			"$w/$name-initrd.img" EFI/debian/initrd.img "$@"
}

# tpm_collect NAME: the guest's log (from $LOG: the mokutil guest's TPM-*
# lines, or the probe's PROBE tpm lines) in $BOOT_LOGS/NAME.tpmlog, its PCRs
# in TPM_PCR[4|7|14].
declare -A TPM_PCR
tpm_collect() {
	local name=$1
	expect_log '^(TPM-LOG-END|PROBE tpm log-end )' || return 1
	tr -d '\r' <"$LOG" | sed -nE 's/^(TPM-B64|PROBE tpm log) //p' | base64 -d \
		>"$BOOT_LOGS/$name.tpmlog" || {
		echo "FAIL: the guest's event log does not decode" >&2
		return 1
	}
	TPM_PCR=()
	while read -r pcr value; do
		TPM_PCR[$pcr]=${value,,}
	done < <(tr -d '\r' <"$LOG" | sed -nE 's/^(TPM-PCR|PROBE tpm pcr) ([0-9]+ [0-9A-Fa-f]{64})$/\2/p')
	[[ -n ${TPM_PCR[4]:-} && -n ${TPM_PCR[7]:-} && -n ${TPM_PCR[14]:-} ]] || {
		echo "FAIL: the guest printed no PCR 4, 7 and 14 (no TPM in the guest?)" >&2
		return 1
	}
}

# boot_tpm NAME VARS KERNEL: boot_mok with a fresh swtpm attached (run_qemu
# --tpm), then tpm_collect.
boot_tpm() {
	local name=$1 vars=$2 kernel=$3
	cp "$vars" "$MOK_WORK/$name.fd"
	boot_mok "$name" "$MOK_WORK/$name.fd" "$kernel" "$TPM_STEPS" --stop 'TPM-LOG-END' --tpm &&
		tpm_collect "$name"
}

# expect_replay NAME: tpm2_eventlog parses the log; both replays equal the PCRs read.
expect_replay() {
	local name=$1 log=$BOOT_LOGS/$1.tpmlog yaml=$BOOT_LOGS/$1.yaml pcr got
	tpm2_eventlog "$log" >"$yaml" 2>"$yaml.err" && [[ ! -s $yaml.err ]] || {
		echo "FAIL: tpm2_eventlog: $(head -n 3 "$yaml.err")" >&2
		return 1
	}
	for pcr in 4 7 14; do
		got=$(python3 "$TPM_LOG" yaml-pcrs "$yaml" | awk -v p="$pcr" '$1 == p { print $2 }')
		[[ $got == "${TPM_PCR[$pcr]}" ]] || {
			echo "FAIL: PCR $pcr: tpm2_eventlog replays ${got:-nothing}, the TPM has ${TPM_PCR[$pcr]}" >&2
			return 1
		}
		got=$(python3 "$TPM_LOG" replay "$log" | awk -v p="$pcr" '$1 == p { print $2 }')
		[[ $got == "${TPM_PCR[$pcr]}" ]] || {
			echo "FAIL: PCR $pcr: the log replays to ${got:-nothing}, the TPM has ${TPM_PCR[$pcr]}" >&2
			return 1
		}
	done
	python3 "$TPM_LOG" events "$log" >"$BOOT_LOGS/$name.events"
	echo "# $name: $(wc -l <"$BOOT_LOGS/$name.events") events; PCR 4/7/14: $(awk '$1 == 4 || $1 == 7 || $1 == 14' "$BOOT_LOGS/$name.events" | wc -l)" >&2
}

# expect_event NAME PCR TYPE DIGEST|- DATA|- [COUNT]: the log has COUNT (default 1) such events.
expect_event() {
	local name=$1 pcr=$2 type=$3 digest=$4 data=$5 want=${6:-1} n
	n=$(awk -v p="$pcr" -v t="$type" -v d="$digest" -v e="$data" \
		'$1 == p && $2 == t && (d == "-" || $3 == d) && (e == "-" || $4 == e)' \
		"$BOOT_LOGS/$name.events" | wc -l)
	(( n == want )) && return 0
	echo "FAIL: $n event(s), not $want, in PCR $pcr of type $type${digest/#-/} ${data:0:80}" >&2
	return 1
}

# expect_kernel_measured NAME KERNEL: its Authenticode digest in PCR 4, once.
expect_kernel_measured() {
	local digest
	digest=$(build/lockshim hash "$2") &&
		expect_event "$1" 4 "$EV_APPLICATION" "$digest" -
}

# expect_authority NAME OWNER FILE [VARIABLE GUID [COUNT]]: PCR 7 names the
# entry FILE of MokListRT (or VARIABLE), once (or COUNT times), with the owner
# GUID it has in the list.
expect_authority() {
	local data
	data=$(python3 "$TPM_LOG" variable-data "${4:-MokListRT}" "${5:-$SHIM_GUID}" "$2" "$3") &&
		expect_event "$1" 7 "$EV_AUTHORITY" - "$data" "${6:-1}"
}

# expect_mok_list NAME FILE...: PCR 14's MokList event hashes the files' bytes.
expect_mok_list() {
	local name=$1 digest; shift
	digest=$(cat "$@" | sha256sum | cut -c1-64) &&
		expect_event "$name" 14 "$EV_IPL" "$digest" "$(printf 'MokList\0' | od -An -tx1 | tr -d ' \n')"
}

# expect_prediction NAME [pcr --predict OPTIONS...] IMAGE: the prediction is
# what the guest read; the vendor certificate is the test PKI's unless
# OPTIONS name one (--vendor-cert F).
expect_prediction() {
	local name=$1 out pcr got; shift
	local -a vendor=(--vendor-cert "$PKI/vendor.der")
	[[ " $* " == *" --vendor-cert "* ]] && vendor=()
	out=$(build/lockshim pcr --predict --event-log "$BOOT_LOGS/$name.tpmlog" \
		"${vendor[@]}" "$@") || {
		echo "FAIL: lockshim pcr --predict $*" >&2
		return 1
	}
	for pcr in 4 7 14; do
		got=$(awk -v p="$pcr" '$1 == p { print $2 }' <<<"$out")
		[[ $got == "${TPM_PCR[$pcr]}" ]] || {
			echo "FAIL: PCR $pcr: predicted ${got:-nothing}, the TPM has ${TPM_PCR[$pcr]}" >&2
			return 1
		}
	done
}

# count_events NAME PCR DIGEST: how many events of PCR carry DIGEST.
count_events() {
	awk -v p="$2" -v d="$3" '$1 == p && $3 == d' "$BOOT_LOGS/$1.events" | wc -l
}

SHIM_CMP=$QEMU_BUILD/compare
SHIM_CMP_GRUB= SHIM_CMP_VARS_LOCKSHIM= SHIM_CMP_VARS_SHIM= SHIM_CMP_ERROR=

shim_compare_prepare() {
	local shim_dir lockshim first
	mkdir -p "$SHIM_CMP"
	shim_dir=$(tests/bench/debian-shim.sh 2>>"$PREP_LOG") ||
		{ PREP_ERROR="Debian's shim (tests/bench/debian-shim.sh) failed"; return 0; }
	lockshim=$(debian_chain_lockshim "$DEBIAN_CHAIN_BUILD" 2>>"$PREP_LOG") ||
		{ PREP_ERROR="lockshim for Debian (debian_chain_lockshim) failed"; return 0; }
	SHIM_CMP_GRUB=$(debian_chain_grub 2>>"$PREP_LOG") ||
		{ PREP_ERROR="Debian's GRUB (debian_chain_grub) failed"; return 0; }
	_prep "Debian's kernel as shipped" tests/qemu/debian-kernel.sh --as-shipped "$SHIM_CMP/kernel-debian.efi" &&
		_prep "db-signed lockshim for Debian" sign_efi db "$lockshim" "$SHIM_CMP/lockshimx64.efi" &&
		_prep "db-signed shim 16.1" sign_efi db "$shim_dir/shimx64.efi" "$SHIM_CMP/shimx64.efi" &&
		_prep "plain grub.cfg" debian_chain_grub_cfg "$SHIM_CMP/plain.cfg" 'console=ttyS0 panic=-1' &&
		_prep "rogue-signed kernel" sign_efi rogue "$LD_WORK/kernel-unsigned.efi" "$SHIM_CMP/kernel-rogue.efi" ||
		return 0
	printf '%s\n' 'set default=0' 'set timeout=0' "menuentry 'refused, then allowed' {" \
		'echo LOCKSHIM-GRUB: the rogue kernel' 'linux /boot/vmlinuz-rogue console=ttyS0 panic=-1' \
		'echo LOCKSHIM-GRUB: the Debian kernel' 'linux /boot/vmlinuz console=ttyS0 panic=-1' \
		'initrd /boot/initrd.img' '}' >"$SHIM_CMP/refused.cfg"
	printf '%s\n' "$EFIVAR_STEPS" "$TPM_STEPS" >"$SHIM_CMP/steps"
	_prep "guest initramfs" tests/initramfs/mokutil-guest.sh --base "$MOK_WORK/mokutil-guest.img" \
		--steps "$SHIM_CMP/steps" "$SHIM_CMP/initrd.img" || return 0
	for first in lockshim shim; do
		debian_chain_boot_entry "$SHIM_CMP/Boot0001-$first.bin" "${first}x64.efi" 2>>"$PREP_LOG" &&
			printf -v "SHIM_CMP_VARS_${first^^}" '%s' "$(tests/qemu/vars.sh --variant "compare-$first" \
				"${DEBIAN_CHAIN_BOOT_VARS[@]}" "$PKI" 2>>"$PREP_LOG" | tail -n 1)"
		local v=SHIM_CMP_VARS_${first^^}
		[[ -s ${!v} ]] || { PREP_ERROR="VARS for $first's Boot0001 failed: $(tail -n 3 "$PREP_LOG" | tr '\n' ' ')"; return 0; }
	done
}

shim_compare_boot() {
	local name=$1 first=$2 cfg=$3 vars rc
	local -a stop_error=(--stop '^error: ' --stop 'Press any key')
	vars=SHIM_CMP_VARS_${first^^}
	# GRUB's "error: bad shim signature" and the prompt after it are expected
	# when it asks about the rogue kernel: no stop on them then, and a key
	# for the prompt (GRUB then boots what it loaded)
	[[ $cfg == refused ]] && stop_error=(--send-on 'Press any key to continue' '\r')
	cp "${!vars}" "$SHIM_CMP/$name.fd" &&
		debian_chain_esp "$SHIM_CMP/$name.img" "${first}x64.efi" "$SHIM_CMP/${first}x64.efi" \
			"$SHIM_CMP/$cfg.cfg" "$SHIM_CMP/kernel-debian.efi" boot/vmlinuz \
			"$SHIM_CMP/kernel-rogue.efi" boot/vmlinuz-rogue "$SHIM_CMP/initrd.img" boot/initrd.img ||
		return 1
	run_qemu --esp "$SHIM_CMP/$name.img" --vars "$SHIM_CMP/$name.fd" --log "$BOOT_LOGS/$name.log" --tpm \
		--timeout 180 --stop 'TPM-LOG-END' "${stop_error[@]}" --stop 'No bootable option' \
		--stop 'Kernel panic' --stop "$QEMU_CRASH"
	rc=$?
	rm -f "$SHIM_CMP/$name.img" "$SHIM_CMP/$name.fd"
	qemu_outcome "$name" || return 1
	(( rc == 0 )) && tpm_collect "$name"
}

shim_compare_after_first_stage() {
	awk -v t="$EV_APPLICATION" '$1 == 4 && $2 == t { if (seen++) print $3 }' "$BOOT_LOGS/$1.events"
}

shim_compare_pcr_events() {
	awk -v p="$2" '$1 == p { print $2, $3, $4 }' "$BOOT_LOGS/$1.events"
}

# guest_efivars DIR: the guest's EFIVAR-B64 files (EFIVAR_STEPS, from $LOG)
# as a copy of efivarfs in DIR, a file NAME-GUID per variable.
guest_efivars() {
	local dir=$1 n
	expect_log '^EFIVAR-END' || return 1
	rm -rf "$dir" && mkdir -p "$dir" || return 1
	for n in $(tr -d '\r' <"$LOG" | sed -nE 's/^EFIVAR-B64 ([A-Za-z0-9]+-[0-9a-f-]{36}) .*/\1/p' | sort -u); do
		tr -d '\r' <"$LOG" | sed -n "s/^EFIVAR-B64 $n //p" | base64 -d >"$dir/$n" || {
			echo "FAIL: the guest's $n does not decode" >&2
			return 1
		}
	done
}

# loader_var DIR NAME: the text of the Boot Loader Interface variable NAME
# in the efivarfs copy DIR (UTF-16 after the attributes, without its NUL);
# fails when it is absent.
loader_var() {
	python3 -c 'import sys
d = open(sys.argv[1], "rb").read()[4:].decode("utf-16-le")
print(d[:-1] if d.endswith("\0") else d)' "$1/$2-$LOADER_GUID" 2>/dev/null
}

# expect_loader_var DIR NAME PATTERN: NAME holds text matching the extended
# regular expression PATTERN, whole.
expect_loader_var() {
	local got
	got=$(loader_var "$1" "$2") || { echo "FAIL: the guest has no $2" >&2; return 1; }
	[[ $got =~ ^($3)$ ]] && return 0
	echo "FAIL: $2 is '$got', not /$3/" >&2
	return 1
}

# expect_sdboot_loader_vars DIR: the Boot Loader Interface's variables in
# the efivarfs copy DIR are those Debian's systemd-boot 252 sets, over the
# four lockshim set before it started systemd-boot (said on the console:
# no GPT partition, a CPU that reports a hypervisor): bootctl names
# systemd-boot, and no variable still holds lockshim's text.
expect_sdboot_loader_vars() {
	local dir=$1 f
	expect_order -F "lockshim: booting $SDBOOT_ESP_PATH: " \
		'lockshim: Boot Loader Interface: LoaderInfo, LoaderFirmwareInfo, LoaderFirmwareType, LoaderImageIdentifier set' &&
		expect_loader_var "$dir" LoaderInfo 'systemd-boot 252[^ ]*' &&
		expect_loader_var "$dir" LoaderImageIdentifier '\\EFI\\systemd\\systemd-bootx64\.efi' &&
		expect_loader_var "$dir" LoaderFirmwareInfo 'EDK II 1\.00' &&
		expect_loader_var "$dir" LoaderFirmwareType 'UEFI 2\.70' || return 1
	# set by systemd-boot alone
	[[ -s $dir/LoaderFeatures-$LOADER_GUID && -s $dir/LoaderEntries-$LOADER_GUID ]] || {
		echo "FAIL: no LoaderFeatures or LoaderEntries: systemd-boot set nothing?" >&2
		return 1
	}
	for f in "$dir"/*-"$LOADER_GUID"; do
		if tail -c +5 "$f" | tr -d '\000' | grep -qi lockshim; then
			echo "FAIL: ${f##*/} still holds lockshim's text: $(tail -c +5 "$f" | tr -d '\000')" >&2
			return 1
		fi
	done
}

# expect_status DIR: `lockshim status` over the record in the efivarfs copy
# DIR (a real boot's) reads it, and each record it lists is one lockshim
# said on the console ($LOG), verdicts as many as said there; its text in
# DIR/status.txt, --json in DIR/status.json.
expect_status() {
	local dir=$1 line n_said n_read
	build/lockshim status --efivars "$dir" >"$dir/status.txt" 2>&1 &&
		build/lockshim status --efivars "$dir" --json >"$dir/status.json" 2>&1 || {
		echo "FAIL: lockshim status over the guest's record: $(head -n 3 "$dir/status.txt")" >&2
		return 1
	}
	grep -q '^lockshim .* recorded this boot in .*LockshimBootLog-' "$dir/status.txt" || {
		echo "FAIL: lockshim status found no record:" >&2
		sed 's/^/| /' "$dir/status.txt" >&2
		return 1
	}
	while IFS= read -r line; do
		LC_ALL=C grep -aqxF "lockshim: $line" "$LOG" || {
			echo "FAIL: status lists a record the console never said: $line" >&2
			return 1
		}
	done < <(sed -n 's/^  //p' "$dir/status.txt")
	n_said=$(LC_ALL=C grep -ac '^lockshim: verdict=' "$LOG")
	n_read=$(grep -c '^  verdict=' "$dir/status.txt")
	(( n_said == n_read )) || {
		echo "FAIL: the console said $n_said verdicts, status lists $n_read" >&2
		return 1
	}
}
