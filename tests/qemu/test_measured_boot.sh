#!/usr/bin/env bash
# Measured boot: what lockshim puts in the TPM, seen by the booted kernel.
# Each scenario boots a kernel through lockshim (Boot0000, Secure Boot on):
# Debian's stock kernel for the vendor-signed case and the chains, the
# companion test kernel (mok.sh) otherwise; with a software TPM (swtpm, one per run, in a temporary
# directory) on QEMU's TPM TIS device; the guest (a mokutil guest,
# tests/initramfs/mokutil-guest.sh) prints the SHA-256 PCRs 4, 7 and 14
# and the firmware's event log (base64). On the host:
#   - tpm2_eventlog parses the log without errors, and its replay and ours
#     (tests/qemu/tpm_log.py) both equal the PCRs the guest read;
#   - PCR 4 holds the kernel's Authenticode digest (`lockshim hash`);
#   - PCR 7 names the entry that allowed the kernel, as shim 15.7+ logs it
#     (MokListRT: the vendor certificate, the MOK certificate, the image
#     hash in MokList), each once;
#   - PCR 14's MokList event is the hash of the MokListRT bytes (the vendor
#     certificate as one X509 list, then MokList);
#   - `lockshim pcr --predict` on the same state, over the firmware's part
#     of the log, gives the guest's PCR 4, 7 and 14.
#
#   tests/qemu/test_measured_boot.sh [SCENARIO...]   (default: all)
#
#   tpm_vendor_kernel    the vendor-signed kernel, no MokList
#   tpm_mok_kernel       a MOK-signed kernel, MokList = build/pki/mok.esl
#   tpm_hash_kernel      an unsigned kernel allowed by its hash in MokList
#   tpm_db_hash_kernel   an unsigned kernel allowed by its hash in db
#   tpm_sdboot_mok_kernel  lockshim -> systemd-boot (vendor) -> a MOK-signed
#                        kernel through the firmware's LoadImage: each image
#                        in PCR 4 once, each authority in PCR 7 once; the
#                        guest reads systemd-boot's Boot Loader Interface
#                        variables, set over the four lockshim set
#                        (docs/debian.md, "What bootctl shows"): none left with lockshim's text
#   tpm_companion_kernel the companion kernel (kernel/build.sh, vendor-signed)
#                        with the probe initramfs (tests/guest/probe_tpm.c
#                        prints the PCRs and the log), lockshim its default
#                        loader, no boot entry
#   tpm_mok_manager      the owner enters the MOK manager (MokTimeout, a key)
#                        and continues: the manager in PCR 4 and its db entry
#                        in PCR 7, then the kernel
#   tpm_fallback_kernel  lockshim at the removable path of a GPT disk, no
#                        boot option: its fallback creates the option
#                        \EFI\Acme\BOOTX64.CSV names (the vendor-signed
#                        companion kernel) and starts it as its next stage.
#                        PCR 4 (equal to the log's replay) holds, after the
#                        firmware's own images it tried first (its shell),
#                        two images: lockshim (the firmware's event), then
#                        the kernel (lockshim's); the CSV's check of the
#                        kernel measures nothing; `lockshim pcr --predict`
#                        over the log gives the PCRs
#   tpm_grub_refused_as_shim  Debian's chain: lockshim (Debian's vendor
#                        certificate) -> Debian's signed GRUB, whose grub.cfg
#                        asks SHIM_LOCK about a rogue-signed kernel (refused)
#                        and then boots Debian's kernel: the refused kernel is
#                        in PCR 4 too, as shim 16.1's Verify measures before
#                        it decides, and nothing of it in PCR 7. Then the same
#                        boot under Debian's shim 16.1, on the same firmware
#                        and a fresh TPM: PCR 4's events after the first
#                        stage's are the same (GRUB, the rogue kernel,
#                        Debian's kernel twice), PCR 7's and 14's are the
#                        same event for event, and so are the PCRs 7 and 14
#                        (measured-boot-shim.sh shows them to people).
#                        `lockshim status` over the lockshim boot's record
#                        (its guest's LockshimBootLog) lists GRUB's questions
#                        through SHIM_LOCK with their verdicts: the rogue
#                        kernel refused, Debian's allowed, as often as asked
#   tpm_launch_loads_kernel  lockshim -> launch.efi (vendor), which loads the
#                        companion kernel, db-signed, through the firmware's
#                        LoadImage with no override of its own: lockshim's
#                        override measures it, once, with its device path
#   sdboot_return_no_loader_write  lockshim -> systemd-boot, whose one entry
#                        (an unsigned kernel) is refused: systemd-boot
#                        returns, lockshim returns, and the firmware boots
#                        Boot0001 (a db-signed kernel) in the same boot,
#                        whose guest reads systemd-boot's Boot Loader
#                        Interface variables still: lockshim wrote none after
#                        the return; its record (written as it returned)
#                        lists systemd-boot's refusal. No TPM
#
# Environment and output as for test_mok.sh (mok.sh gives the preparation).
# Logs: build/qemu/logs/NAME.log; the guest's event log and tpm2_eventlog's
# YAML beside it (NAME.tpmlog, NAME.yaml).

# shellcheck source=tests/qemu/measured.sh
. "$(dirname "${BASH_SOURCE[0]}")/measured.sh" # cds to the repository

# GRUB or systemd-boot holds the kernel and its initrd while the kernel
# decompresses itself: more memory than the default (lib.sh).
QEMU_MEMORY=512

SCENARIOS=(
	tpm_vendor_kernel
	tpm_mok_kernel
	tpm_hash_kernel
	tpm_db_hash_kernel
	tpm_sdboot_mok_kernel
	tpm_mok_manager
	tpm_companion_kernel
	tpm_launch_loads_kernel
	tpm_fallback_kernel
	tpm_grub_refused_as_shim
	sdboot_return_no_loader_write
)

tpm_vendor_kernel() {
	local name=${FUNCNAME[0]}
	boot_tpm "$name" "$VARS_BASE" "$BOOT_WORK/kernel-vendor.efi" || return 1
	expect_replay "$name" &&
		expect_kernel_measured "$name" "$BOOT_WORK/kernel-vendor.efi" &&
		expect_authority "$name" "$SHIM_GUID" "$PKI/vendor.der" &&
		expect_event "$name" 7 "$EV_AUTHORITY" - - 3 && # db for lockshim (firmware), SbatLevel, vendor
		expect_mok_list "$name" "$MOK_WORK/vendor.esl" &&
		expect_prediction "$name" "$BOOT_WORK/kernel-vendor.efi"
}

tpm_mok_kernel() {
	local name=${FUNCNAME[0]}
	boot_tpm "$name" "$VARS_ENROLLED" "$BOOT_WORK/companion-mok.efi" || return 1
	expect_replay "$name" &&
		expect_kernel_measured "$name" "$BOOT_WORK/companion-mok.efi" &&
		expect_authority "$name" "$(build/lockshim esl "$PKI/mok.esl" | awk '/^[^ #]/ { print $2; exit }')" \
			"$PKI/mok.der" &&
		expect_mok_list "$name" "$MOK_WORK/vendor.esl" "$PKI/mok.esl" &&
		expect_prediction "$name" --mok "$PKI/mok.esl" "$BOOT_WORK/companion-mok.efi"
}

# hash_kernel_boots NAME VARS ESL VARIABLE GUID: the unsigned kernel, its
# hash the ESL in VARIABLE (MokList, db), is allowed by that entry (logged
# as VARIABLE, with ESL's owner) and measured; PCR 14's MokList holds
# MokList's ESL too.
hash_kernel_boots() {
	local name=$1 vars=$2 esl=$3 variable=$4 guid=$5 kernel=$BOOT_WORK/companion-unsigned.efi
	local -a mok=("$MOK_WORK/vendor.esl") predict=(--db "$PKI/db.esl" --db "$esl")
	[[ $variable == db ]] || { mok+=("$esl"); predict=(--mok "$esl"); }
	boot_tpm "$name" "$vars" "$kernel" || return 1
	build/lockshim hash "$kernel" | xxd -r -p >"$MOK_WORK/kernel.sha256" || return 1
	expect_replay "$name" &&
		expect_kernel_measured "$name" "$kernel" &&
		expect_authority "$name" "$(build/lockshim esl "$esl" | awk '/^[^ #]/ { print $2; exit }')" \
			"$MOK_WORK/kernel.sha256" "$variable" "$guid" &&
		expect_mok_list "$name" "${mok[@]}" &&
		expect_prediction "$name" "${predict[@]}" "$kernel"
}

tpm_hash_kernel() {
	hash_kernel_boots "${FUNCNAME[0]}" "$VARS_HASH" "$MOK_WORK/kernel-hash.esl" MokListRT "$SHIM_GUID"
}

tpm_db_hash_kernel() {
	hash_kernel_boots "${FUNCNAME[0]}" "$VARS_DB_HASH" "$MOK_WORK/db-hash.esl" db "$DB_GUID"
}

# lockshim starts systemd-boot, which loads a MOK-signed kernel through the
# firmware's LoadImage under its own security override (asking lockshim's
# SHIM_LOCK Verify) on top of lockshim's: whichever answers, each image is
# in PCR 4 once and each entry that allowed one in PCR 7 once.
tpm_sdboot_mok_kernel() {
	local name=${FUNCNAME[0]} w=$MOK_WORK rc
	sdboot_esp "$name" mok \
		$'title MOK kernel\nlinux /EFI/debian/vmlinuz-mok.efi\ninitrd /EFI/debian/initrd.img\noptions console=ttyS0 panic=-1\n' \
		"$EFIVAR_STEPS"$'\n'"$TPM_STEPS" "$w/kernel-mok.efi" EFI/debian/vmlinuz-mok.efi || return 1
	run_qemu --esp "$w/$name.img" --vars "$VARS_SDBOOT" --log "$BOOT_LOGS/$name.log" --tpm \
		--timeout "$QEMU_TIMEOUT" --stop 'TPM-LOG-END' --stop 'lockshim: refusing' \
		--stop 'No bootable option' --stop "$CRASH" --stop 'Kernel panic'
	rc=$?
	rm -f "$w/$name.img" "$w/$name-initrd.img"
	qemu_outcome "$name" || return 1
	(( rc == 0 )) || return "$rc"
	tpm_collect "$name" && expect_replay "$name" &&
		expect_kernel_measured "$name" "$w/systemd-boot.efi" &&
		expect_kernel_measured "$name" "$w/kernel-mok.efi" &&
		expect_authority "$name" "$SHIM_GUID" "$PKI/vendor.der" &&
		expect_authority "$name" "$(build/lockshim esl "$PKI/mok.esl" | awk '/^[^ #]/ { print $2; exit }')" \
			"$PKI/mok.der" &&
		expect_mok_list "$name" "$MOK_WORK/vendor.esl" "$PKI/mok.esl" &&
		expect_prediction "$name" --mok "$PKI/mok.esl" "$w/systemd-boot.efi" "$w/kernel-mok.efi" &&
		guest_efivars "$w/$name-efivars" && expect_sdboot_loader_vars "$w/$name-efivars"
}

# MokTimeout set: a key press starts the MOK manager (db-signed), the owner
# continues booting, lockshim boots the kernel. Both images are measured.
tpm_mok_manager() {
	local name=${FUNCNAME[0]}
	cp "$VARS_TIMEOUT" "$MOK_WORK/$name.fd"
	boot_mok "$name" "$MOK_WORK/$name.fd" "$BOOT_WORK/companion-vendor.efi" "$TPM_STEPS" \
		--stop 'TPM-LOG-END' --tpm --send-on 'press any key for the MOK manager' ' ' \
		--send-on 'Choice \(continues booting' '3' || return 1
	expect_order -F '==== MOK manager ====' 'TPM-LOG-END' &&
		tpm_collect "$name" && expect_replay "$name" &&
		expect_kernel_measured "$name" "$MOK_WORK/mmx64-db.efi" &&
		expect_kernel_measured "$name" "$BOOT_WORK/companion-vendor.efi" &&
		# db for lockshim (the firmware's) and for the manager (lockshim's): the same entry
		expect_authority "$name" "$(build/lockshim esl "$PKI/db.esl" | awk '/^[^ #]/ { print $2; exit }')" \
			"$PKI/db.der" db "$DB_GUID" 2 &&
		expect_authority "$name" "$SHIM_GUID" "$PKI/vendor.der" &&
		expect_prediction "$name" --db "$PKI/db.esl" "$MOK_WORK/mmx64-db.efi" \
			"$BOOT_WORK/companion-vendor.efi"
}

# The companion kernel as lockshim's default loader: the same records as
# Debian's kernel (tpm_vendor_kernel), its 6.12 EFI stub measuring only
# into PCR 9.
tpm_companion_kernel() {
	local name=${FUNCNAME[0]}
	need_lockshim &&
		lockdown_boot "$name" "$QEMU_BUILD/vars-secboot.fd" "$LD_WORK/lockshim-db.efi" \
			"$LD_WORK/kernel-vendor.efi" || return 1
	tpm_collect "$name" && expect_replay "$name" &&
		expect_kernel_measured "$name" "$LD_WORK/kernel-vendor.efi" &&
		expect_authority "$name" "$SHIM_GUID" "$PKI/vendor.der" &&
		expect_event "$name" 7 "$EV_AUTHORITY" - - 3 &&
		expect_mok_list "$name" "$MOK_WORK/vendor.esl" &&
		expect_prediction "$name" "$LD_WORK/kernel-vendor.efi"
}

# lockshim starts launch.efi (as its default loader), which starts the
# companion kernel, signed with the db key, with the firmware's LoadImage and
# no security override of its own: lockshim's (efi_security_override.c)
# decides and measures it, with the device path the firmware gives, and does
# not hand it on to the firmware's handlers, whose db check would pass and
# whose measurement would then log it a second time.
tpm_launch_loads_kernel() {
	local name=${FUNCNAME[0]} kernel=$BOOT_WORK/companion-db.efi digest
	need_lockshim &&
		lockdown_boot "$name" "$QEMU_BUILD/vars-secboot.fd" "$LD_WORK/lockshim-db.efi" \
			"$MOK_WORK/launch-vendor.efi" \
			$'image=\\EFI\\BOOT\\kernel.efi\noptions=initrd=\\EFI\\BOOT\\initrd.img' \
			"$kernel" EFI/BOOT/kernel.efi || return 1
	digest=$(build/lockshim hash "$kernel") || return 1
	expect_log -F 'lockshim: loading ' &&
		tpm_collect "$name" && expect_replay "$name" &&
		expect_kernel_measured "$name" "$MOK_WORK/launch-vendor.efi" &&
		expect_kernel_measured "$name" "$kernel" &&
		# the firmware's device path: 32 bytes of header, then a non-zero path length
		awk -v d="$digest" '$1 == 4 && $3 == d && substr($4, 49, 16) != "0000000000000000" { f = 1 } END { exit !f }' \
			"$BOOT_LOGS/$name.events" &&
		# db for lockshim (firmware), SbatLevel, vendor for launch.efi, db for the kernel
		expect_event "$name" 7 "$EV_AUTHORITY" - - 4 &&
		expect_authority "$name" "$(build/lockshim esl "$PKI/db.esl" | awk '/^[^ #]/ { print $2; exit }')" \
			"$PKI/db.der" db "$DB_GUID" 2 &&
		expect_prediction "$name" --db "$PKI/db.esl" "$MOK_WORK/launch-vendor.efi" "$kernel"
}

# Nothing of the Boot Loader Interface after the next stage returns
# (docs/debian.md, "What bootctl shows"): systemd-boot sets its variables over lockshim's,
# its one entry (an unsigned kernel) is refused and it returns to lockshim,
# which returns to the firmware; the firmware boots Boot0001 (a db-signed
# kernel) in the same boot, whose guest still reads systemd-boot's
# variables: a lockshim that set its own again after the return would show.
sdboot_return_no_loader_write() {
	local name=${FUNCNAME[0]} w=$MOK_WORK rc unsigned=$BOOT_WORK/companion-unsigned.efi
	sdboot_esp "$name" unsigned \
		$'title unsigned kernel\nlinux /EFI/debian/vmlinuz-unsigned.efi\noptions console=ttyS0\n' \
		"$EFIVAR_STEPS" "$unsigned" EFI/debian/vmlinuz-unsigned.efi \
		"$BOOT_WORK/companion-db.efi" EFI/debian/vmlinuz-db.efi || return 1
	run_qemu --esp "$w/$name.img" --vars "$VARS_SDBOOT_RETURN" --log "$BOOT_LOGS/$name.log" \
		--timeout "$QEMU_TIMEOUT" --stop 'EFIVAR-END' --stop 'MOKUTIL-GUEST-ERROR' \
		--stop 'No bootable option' --stop "$CRASH" --stop 'Kernel panic'
	rc=$?
	rm -f "$w/$name.img" "$w/$name-initrd.img"
	qemu_outcome "$name" && expect_guest_read_variables "$LOG" || return 1
	(( rc == 0 )) || return "$rc"
	expect_log -F "lockshim: refusing image from the second stage ($(stat -c %s "$unsigned") bytes): image is not signed" &&
		expect_order -F "lockshim: $SDBOOT_ESP_PATH returned: " 'BdsDxe: failed to start Boot0000 "lockshim"' &&
		expect_order -F 'BdsDxe: failed to start Boot0000 "lockshim"' 'BdsDxe: starting Boot0001 "kernel"' &&
		expect_order -F 'BdsDxe: starting Boot0001 "kernel"' 'EFIVAR-END' &&
		guest_efivars "$w/$name-efivars" && expect_sdboot_loader_vars "$w/$name-efivars" &&
		# lockshim's record, written as it returned, with systemd-boot's refusal
		expect_status "$w/$name-efivars" || return 1
	grep -qxF "  verdict=refused image=buffer:$(stat -c %s "$unsigned") reason=not-signed" \
		"$w/$name-efivars/status.txt" || {
		echo "FAIL: status does not list systemd-boot's refused kernel" >&2
		return 1
	}
}

# The fallback's one boot (docs/fallback.md): the firmware measures
# lockshim from the removable path; lockshim decides the CSV's kernel (not
# measured: it has not run), creates its option, and reads, decides and
# measures it again as its next stage. PCR 4's applications from the disk
# are exactly lockshim, then the kernel.
tpm_fallback_kernel() {
	local name=${FUNCNAME[0]} w=$MOK_WORK kernel=$BOOT_WORK/companion-vendor.efi rc got want
	printf '%s\n' "$TPM_STEPS" >"$w/$name.steps"
	tests/initramfs/mokutil-guest.sh --base "$w/mokutil-guest.img" --steps "$w/$name.steps" \
		"$w/$name-initrd.img" >/dev/null &&
		make_esp "$w/$name.fat" "$BOOT_WORK/lockshim-db.efi" EFI/BOOT/BOOTX64.EFI \
			"$w/fallback.csv" EFI/Acme/BOOTX64.CSV "$kernel" EFI/Acme/kernel.efi \
			"$w/$name-initrd.img" EFI/Acme/initrd.img &&
		python3 tests/qemu/mkgpt.py "$w/$name.img" "$w/$name.fat" "$FALLBACK_PARTUUID" || return 1
	run_qemu --esp "$w/$name.img" --vars "$QEMU_BUILD/vars-secboot.fd" --log "$BOOT_LOGS/$name.log" \
		--tpm --timeout "$QEMU_TIMEOUT" --stop 'TPM-LOG-END' --stop 'lockshim: refusing' \
		--stop "BdsDxe: failed to start Boot[0-9A-F]{4} \"(UEFI Misc Device|$FALLBACK_LABEL)" \
		--stop 'No bootable option' --stop "$CRASH" \
		--stop 'Kernel panic'
	rc=$?
	rm -f "$w/$name.img" "$w/$name.fat" "$w/$name-initrd.img"
	qemu_outcome "$name" || return 1
	(( rc == 0 )) || return "$rc"
	expect_log '^lockshim: fallback: created Boot[0-9A-F]{4} "'"$FALLBACK_LABEL"'" for \\EFI\\Acme\\kernel\.efi$' &&
		expect_order '^lockshim: fallback: starting Boot[0-9A-F]{4} \(\\EFI\\Acme\\kernel\.efi\)' \
			'^lockshim: booting \\EFI\\Acme\\kernel\.efi: ' &&
		expect_order -F 'lockshim: booting \EFI\Acme\kernel.efi: ' 'TPM-LOG-END' &&
		tpm_collect "$name" && expect_replay "$name" || return 1
	want=$(build/lockshim hash "$BOOT_WORK/lockshim-db.efi" && build/lockshim hash "$kernel") || return 1
	# but the firmware's own images it tried first (OVMF's shell, refused
	# under Secure Boot): their device path starts with a firmware volume
	# node (type 4, subtype 7), after the event's 32 bytes of header
	got=$(awk -v t="$EV_APPLICATION" '$1 == 4 && $2 == t && substr($4, 65, 4) != "0407" { print $3 }' \
		"$BOOT_LOGS/$name.events")
	[[ $got == "$want" ]] || {
		echo "FAIL: PCR 4's applications from the disk are not lockshim, then the kernel (< wanted, > the log):" >&2
		diff <(echo "$want") <(echo "$got") | sed 's/^/| /' >&2
		return 1
	}
	# the prediction builds on the firmware's part up to lockshim's event,
	# the shell's included
	expect_authority "$name" "$SHIM_GUID" "$PKI/vendor.der" &&
		expect_prediction "$name" "$kernel"
}

# Beside shim 16.1 (docs/measured-boot.md). The two boots with the
# grub.cfg that asks about the rogue kernel first stand for the plain pair
# too: their PCR 4 holds the plain boot's events (GRUB, then Debian's kernel
# twice, as GRUB asks Verify twice) with the rogue kernel's between, and a
# refused image adds nothing to PCR 7 under either first stage, so PCR 7
# and 14 are the plain boot's (measured-boot-shim.sh boots all four).
# The lockshim boot is checked on its own first: the refusal and the
# allowing in its log, each kernel in PCR 4 as often as GRUB asked, Debian's
# CA named once in PCR 7, and the prediction of PCR 4, 7 and 14.
tpm_grub_refused_as_shim() {
	local l=${FUNCNAME[0]}-lockshim s=${FUNCNAME[0]}-shim n grub rogue debian want got pcr failed=0
	local n_rogue n_debian i
	local -a shim_lock=()
	local -A pcr7=() pcr14=()
	if [[ -n $SHIM_CMP_ERROR ]]; then
		echo "FAIL: $SHIM_CMP_ERROR" >&2
		return 1
	fi
	grub=$(build/lockshim hash "$SHIM_CMP_GRUB") && rogue=$(build/lockshim hash "$SHIM_CMP/kernel-rogue.efi") &&
		debian=$(build/lockshim hash "$SHIM_CMP/kernel-debian.efi") || return 1
	want=$(printf '%s\n' "$grub" "$rogue" "$debian" "$debian")

	shim_compare_boot "$l" lockshim refused && expect_replay "$l" || return 1
	pcr7[$l]=${TPM_PCR[7]} pcr14[$l]=${TPM_PCR[14]}
	# `lockshim status` over this boot's record (docs/status.md): GRUB's
	# two questions through SHIM_LOCK, each with its verdict, and GRUB as
	# the image lockshim started
	guest_efivars "$SHIM_CMP/$l-efivars" && expect_status "$SHIM_CMP/$l-efivars" || return 1
	python3 - "$SHIM_CMP/$l-efivars/status.json" "$(stat -c %s "$SHIM_CMP/kernel-rogue.efi")" \
		"$(stat -c %s "$SHIM_CMP/kernel-debian.efi")" <<'PY' || return 1
import json, sys
s = json.load(open(sys.argv[1]))
rogue, debian = "buffer:" + sys.argv[2], "buffer:" + sys.argv[3]
v = [(r["verdict"], r["image"], r.get("reason"), r.get("list"), r.get("entry"))
     for r in s["records"] if "verdict" in r and r["image"].startswith("buffer:")]
want = [("refused", rogue, "untrusted-signer", None, None)] + \
    [("allowed", debian, "allowed-cert", "vendor", "/CN=Debian Secure Boot CA")] * (len(v) - 1)
assert len(v) >= 2 and v == want, f"second stage's verdicts: {v}"
st = s["started"]
assert (st["image"], st["verdict"]) == ("\\EFI\\debian\\grubx64.efi", "allowed"), st
PY
	expect_log -F 'lockshim: booting \EFI\debian\grubx64.efi: signed by /CN=Debian Secure Boot Signer' &&
		expect_log "lockshim: refusing image from the second stage \([0-9]+ bytes\): signer does not chain" &&
		expect_log "lockshim: verdict=refused image=buffer:$(stat -c %s "$SHIM_CMP/kernel-rogue.efi") reason=untrusted-signer" &&
		expect_log -F 'lockshim: allowing image from the second stage' &&
		expect_order -F 'LOCKSHIM-GRUB: the rogue kernel' 'error: bad shim signature' &&
		expect_order -F 'error: bad shim signature' 'LOCKSHIM-GRUB: the Debian kernel' &&
		expect_order -F 'LOCKSHIM-GRUB: the Debian kernel' 'TPM-LOG-END' || return 1
	# GRUB asks as often under lockshim as under shim: counted from the log
	n_rogue=$(count_events "$l" 4 "$rogue") n_debian=$(count_events "$l" 4 "$debian")
	echo "# $l: the rogue kernel $n_rogue time(s) in PCR 4, Debian's kernel $n_debian" >&2
	(( n_rogue >= 1 && n_debian >= 1 )) || {
		echo "FAIL: PCR 4 lacks the refused kernel ($n_rogue) or the allowed one ($n_debian)" >&2
		return 1
	}
	for (( i = 0; i < n_rogue; i++ )); do shim_lock+=(--shim-lock "$SHIM_CMP/kernel-rogue.efi"); done
	for (( i = 0; i < n_debian; i++ )); do shim_lock+=(--shim-lock "$SHIM_CMP/kernel-debian.efi"); done
	# Debian's CA, lockshim's vendor certificate, allowed GRUB and the kernel
	expect_authority "$l" "$SHIM_GUID" "$DEBIAN_CHAIN_BUILD/vendor.der" MokListRT "$SHIM_GUID" &&
		expect_prediction "$l" --vendor-cert "$DEBIAN_CHAIN_BUILD/vendor.der" \
			--vendor-dbx "$DEBIAN_CHAIN_BUILD/vendor-dbx.esl" "$SHIM_CMP_GRUB" "${shim_lock[@]}" || return 1

	shim_compare_boot "$s" shim refused && expect_replay "$s" || return 1
	pcr7[$s]=${TPM_PCR[7]} pcr14[$s]=${TPM_PCR[14]}
	expect_no_log '^lockshim' &&
		expect_order -F 'LOCKSHIM-GRUB: the rogue kernel' 'error: bad shim signature' &&
		expect_order -F 'error: bad shim signature' 'LOCKSHIM-GRUB: the Debian kernel' &&
		expect_order -F 'LOCKSHIM-GRUB: the Debian kernel' 'TPM-LOG-END' || return 1

	# each boot's first stage is the one it names (the firmware's event of it)
	for n in lockshim shim; do
		got=$(awk -v t="$EV_APPLICATION" '$1 == 4 && $2 == t { print $3; exit }' \
			"$BOOT_LOGS/${FUNCNAME[0]}-$n.events")
		[[ $got == "$(build/lockshim hash "$SHIM_CMP/${n}x64.efi")" ]] || {
			echo "FAIL: PCR 4's first application under $n is ${got:-none}, not ${n}x64.efi" >&2
			failed=1
		}
	done
	# PCR 4 after the first stage: these very events, under both
	for n in "$l" "$s"; do
		got=$(shim_compare_after_first_stage "$n")
		[[ $got == "$want" ]] || {
			echo "FAIL: $n: PCR 4 after the first stage is not GRUB, the rogue kernel, Debian's kernel twice:" >&2
			diff <(echo "$want") <(echo "$got") | sed 's/^/| /' >&2
			failed=1
		}
	done
	# PCR 7 and 14: the same events (type, digest, data) and the same values
	expect_event "$l" 14 "$EV_IPL" - - 3 || failed=1
	for pcr in 7 14; do
		if ! diff <(shim_compare_pcr_events "$l" "$pcr") <(shim_compare_pcr_events "$s" "$pcr") >/dev/null; then
			echo "FAIL: PCR $pcr's events differ (< lockshim, > shim 16.1):" >&2
			diff <(shim_compare_pcr_events "$l" "$pcr") <(shim_compare_pcr_events "$s" "$pcr") |
				cut -c1-160 | sed 's/^/| /' >&2
			failed=1
		fi
	done
	[[ ${pcr7[$l]} == "${pcr7[$s]}" && ${pcr14[$l]} == "${pcr14[$s]}" ]] || {
		echo "FAIL: PCR 7 or 14 differ: lockshim ${pcr7[$l]} ${pcr14[$l]}, shim ${pcr7[$s]} ${pcr14[$s]}" >&2
		failed=1
	}
	(( failed == 0 ))
}

if [[ ${BASH_SOURCE[0]} == "$0" ]]; then
	set -uo pipefail
	scenario_main measured_prepare "$@"
fi
