#!/usr/bin/env bash
# Build hygiene (the Makefile's "Flags files" and "EFI_TEST_CFLAGS"):
#   - test-only compile flags (EFI_TEST_CFLAGS, -DLOCKSHIM_FAULT_INJECTION,
#     -DLOCKSHIM_TEST_CORRUPT_TABLE) stop make at once with the release BUILD
#     directory, from the command line or the environment;
#   - each BUILD directory records the flags its objects were compiled with,
#     so a flag change rebuilds them (the fault code in and out of
#     efi_fault.o; the MOK manager's, the core's, lib/efi's and the host's
#     objects), and an unchanged build does not;
#   - the release link (build/*.efi) refuses an image carrying the fault
#     code (scripts/check-no-fault-code.sh, on crafted images);
#   - every link (release or fault build) refuses an image with a section
#     both writable and executable, lib/efi/pe-nx-compat.py refuses one with
#     a section inside a page and leaves it as it was, and marks the others
#     IMAGE_DLLCHARACTERISTICS_NX_COMPAT, build/*.efi included (executable
#     is IMAGE_SCN_MEM_EXECUTE: a writable section flagged code but not
#     executable is marked);
#   - EFI objects are compiled with the stack protector, both programs link
#     with lib/efi/elf_x86_64_efi.lds (make -n), and build/*.so carry the
#     stack guard and calls to __stack_chk_fail (run make first).
# A few seconds: one scratch BUILD, five small objects, four crafted
# images; no firmware program is linked.
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
source tests/cli/lib.sh

# This test's own make runs: none of a parent make's or the caller's settings.
unset MAKEFLAGS MFLAGS MAKEOVERRIDES MAKELEVEL GNUMAKEFLAGS EFI_TEST_CFLAGS BUILD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
check=scripts/check-no-fault-code.sh

# ---- test-only flags with the release BUILD directory ----------------------
# refused NAME BUILD ENV-ASSIGNMENTS -- MAKE-ARGS...: make BUILD=BUILD stops
# with the error. -n, and libcrypto.a taken as built (-o): nothing runs if
# make goes on.
refused() {
	local name=$1 build=$2 env=() out rc
	shift 2
	while [[ $1 != -- ]]; do env+=("$1"); shift; done
	shift
	out=$(env "${env[@]}" make -n BUILD="$build" -o "${build%/}/crypto/libcrypto.a" "$@" \
		"${build%/}/lockshimx64.efi" 2>&1)
	rc=$?
	if (( rc != 0 )) && [[ $out == *"test-only"*"release BUILD directory"* ]]; then
		ok "release_build_refuses_$name"
	else
		not_ok "release_build_refuses_$name (exit $rc: $(head -c 300 <<<"$out"))"
	fi
}
refused fault_flag build -- EFI_TEST_CFLAGS=-DLOCKSHIM_FAULT_INJECTION
refused fault_flag_dot_build ./build -- EFI_TEST_CFLAGS=-DLOCKSHIM_FAULT_INJECTION
refused fault_flag_absolute "$PWD/build" -- EFI_TEST_CFLAGS=-DLOCKSHIM_FAULT_INJECTION
refused fault_flag_from_environment build EFI_TEST_CFLAGS=-DLOCKSHIM_FAULT_INJECTION --
refused corrupt_table_flag build -- EFI_TEST_CFLAGS=-DLOCKSHIM_TEST_CORRUPT_TABLE
refused fault_define_in_cc build -- CC="cc -DLOCKSHIM_FAULT_INJECTION=1"

# ---- flags files: a flag change rebuilds, nothing else does --------------
scratch=$tmp/b
# compiled NAME TARGET SOURCE WANT MAKE-ARGS...: make TARGET in the scratch
# BUILD; WANT=1: SOURCE was compiled, 0: it was not.
compiled() {
	local name=$1 target=$2 src=$3 want=$4 out rc got=0
	shift 4
	out=$(make BUILD="$scratch" "$@" "$target" 2>&1)
	rc=$?
	[[ $out == *" -c $src "* ]] && got=1
	if (( rc == 0 && got == want )); then
		ok "$name"
	else
		not_ok "$name (exit $rc, compiled: $got, want $want: $(tail -c 300 <<<"$out"))"
	fi
}
# has_fault_code NAME FILE WANT: WANT=1 the fault marker is in FILE, 0 not.
has_fault_code() {
	local got=1
	"$check" "$2" >/dev/null 2>&1 && got=0
	if (( got == $3 )); then ok "$1"; else not_ok "$1 (fault code in $2: $got, want $3)"; fi
}

fault_o=$scratch/efi/efi/efi_fault.o
fault_flag=EFI_TEST_CFLAGS=-DLOCKSHIM_FAULT_INJECTION
compiled flags_efi_first_build "$fault_o" src/efi/efi_fault.c 1
has_fault_code flags_efi_first_build_no_fault_code "$fault_o" 0
compiled flags_efi_same_flags_no_rebuild "$fault_o" src/efi/efi_fault.c 0
compiled flags_efi_fault_flag_rebuilds "$fault_o" src/efi/efi_fault.c 1 "$fault_flag"
has_fault_code flags_efi_fault_flag_has_fault_code "$fault_o" 1
compiled flags_efi_same_fault_flag_no_rebuild "$fault_o" src/efi/efi_fault.c 0 "$fault_flag"
compiled flags_efi_flag_dropped_rebuilds "$fault_o" src/efi/efi_fault.c 1
has_fault_code flags_efi_flag_dropped_no_fault_code "$fault_o" 0
# The MOK manager's objects and the core's record theirs too.
compiled flags_mm_first_build "$scratch/efi/mm/mm_main.o" src/mm/mm_main.c 1
compiled flags_mm_fault_flag_rebuilds "$scratch/efi/mm/mm_main.o" src/mm/mm_main.c 1 "$fault_flag"
compiled flags_core_first_build "$scratch/efi/core/reason.o" src/core/reason.c 1
# The stack protector (EFI_CFLAGS): these two have protected functions,
# which call __stack_chk_fail when their canary changed.
for o in "$scratch/efi/core/reason.o" "$scratch/efi/mm/mm_main.o"; do
	if nm -u "$o" 2>/dev/null | grep -w __stack_chk_fail >/dev/null; then
		ok "stack_protector_in_${o##*/}"
	else
		not_ok "stack_protector_in_${o##*/} (no reference to __stack_chk_fail)"
	fi
done
compiled flags_core_fault_flag_rebuilds "$scratch/efi/core/reason.o" src/core/reason.c 1 "$fault_flag"

# lib/efi's objects: the same for a compiler change.
relocate_o=$scratch/lib-efi/efi_relocate.o
compiled flags_lib_efi_first_build "$relocate_o" lib/efi/efi_relocate.c 1
compiled flags_lib_efi_same_flags_no_rebuild "$relocate_o" lib/efi/efi_relocate.c 0
compiled flags_lib_efi_compiler_change_rebuilds "$relocate_o" lib/efi/efi_relocate.c 1 CC="cc -DLOCKSHIM_FLAGS_TEST"

host_o=$scratch/host/core/reason.o
compiled flags_host_first_build "$host_o" src/core/reason.c 1
compiled flags_host_same_flags_no_rebuild "$host_o" src/core/reason.c 0
compiled flags_host_compiler_change_rebuilds "$host_o" src/core/reason.c 1 HOST_CC="cc -DLOCKSHIM_FLAGS_TEST"

# ---- the release link refuses the fault code -------------------------------
# Crafted images: a console line of efi_fault.c in UTF-16 (as the firmware
# programs' L"..." strings are), and the same words in ASCII only.
printf 'const unsigned short m[] = u"fault: failing call %%d (%%s %%s)\\n";\nint f(void) { return m[0]; }\n' >"$tmp/marked.c"
printf 'const char m[] = "fault: failing call %%d (%%s %%s)\\n";\nint f(void) { return m[0]; }\n' >"$tmp/clean.c"
# Linked as the firmware programs are (the project's script, an entry), so
# objcopy makes PE executables of them whose sections start on pages.
craft_so() {
	cc -shared -fpic -nostdlib -Wl,-T,lib/efi/elf_x86_64_efi.lds -Wl,-e,f "$@" 2>/dev/null
}
for kind in marked clean; do
	craft_so "$tmp/$kind.c" -o "$tmp/$kind.so" || not_ok "crafted_image_$kind (cc)"
done
out=$("$check" "$tmp/marked.so" 2>&1)
rc=$?
if (( rc != 0 )) && [[ $out == *"$tmp/marked.so"*"fault"* ]]; then
	ok "check_no_fault_code_refuses_marker"
else
	not_ok "check_no_fault_code_refuses_marker (exit $rc: $out)"
fi
if out=$("$check" "$tmp/clean.so" 2>&1); then
	ok "check_no_fault_code_accepts_clean"
else
	not_ok "check_no_fault_code_accepts_clean ($out)"
fi

# The link rule itself ($(BUILD)/%.efi from %.so), on the crafted images
# taken as linked (-o): refused and removed in a release-kind BUILD,
# accepted clean, and accepted in a fault build.
# efi_from NAME SO WANT WHY MAKE-ARGS...: WANT=1 the .efi is made, 0
# refused with WHY in make's output.
efi_from() {
	local name=$1 so=$2 want=$3 why=$4 dir=$tmp/l-$1 out rc
	shift 4
	mkdir -p "$dir"
	cp "$so" "$dir/lockshimx64.so"
	out=$(make BUILD="$dir" -o "$dir/lockshimx64.so" "$@" "$dir/lockshimx64.efi" 2>&1)
	rc=$?
	if (( want )) && (( rc == 0 )) && [[ -f $dir/lockshimx64.efi ]]; then
		ok "$name"
	elif (( !want )) && (( rc != 0 )) && [[ ! -e $dir/lockshimx64.efi && $out == *"$why"* ]]; then
		ok "$name"
	else
		not_ok "$name (exit $rc, image made: $([[ -f $dir/lockshimx64.efi ]] && echo yes || echo no): $(tail -c 300 <<<"$out"))"
	fi
}
efi_from release_link_refuses_fault_code "$tmp/marked.so" 0 fault
efi_from release_link_accepts_clean_image "$tmp/clean.so" 1 -
efi_from fault_link_accepts_fault_code "$tmp/marked.so" 1 - "$fault_flag"

# ---- NX: lib/efi/pe-nx-compat.py marks the images, or fails the link -----
# A section both writable and executable (.sdata, which the script puts in
# .data, made executable): the link refuses it, whatever the build.
printf '.section .sdata,"awx",@progbits\n.byte 0xc3\n.section .note.GNU-stack,"",@progbits\n' >"$tmp/wx.s"
craft_so "$tmp/clean.c" "$tmp/wx.s" -o "$tmp/wx.so" || not_ok "crafted_image_wx (cc)"
efi_from link_refuses_writable_code "$tmp/wx.so" 0 "both writable and executable"
efi_from fault_link_refuses_writable_code "$tmp/wx.so" 0 "both writable and executable" "$fault_flag"
# The default link script packs sections inside pages: refused, unmarked.
cc -shared -fpic -nostdlib -Wl,-e,f "$tmp/clean.c" -o "$tmp/packed.so" 2>/dev/null &&
	objcopy -j .text -j .data -j .rodata -j .dynamic --target efi-app-x86_64 --subsystem=10 \
		"$tmp/packed.so" "$tmp/packed.efi" || not_ok "crafted_image_packed (cc, objcopy)"
cp "$tmp/packed.efi" "$tmp/packed-before.efi"
out=$(lib/efi/pe-nx-compat.py "$tmp/packed.efi" 2>&1)
rc=$?
if (( rc == 1 )) && [[ $out == *"inside a page"* ]] && cmp -s "$tmp/packed.efi" "$tmp/packed-before.efi"; then
	ok "nx_compat_refuses_section_inside_page"
else
	not_ok "nx_compat_refuses_section_inside_page (exit $rc: $out)"
fi
# The rule reads IMAGE_SCN_MEM_EXECUTE, not IMAGE_SCN_CNT_CODE (which
# only says what a section holds): lockshim's .data made executable but not
# code is refused; made "code" but not executable, it is marked.
# data_flags IN OUT OR-MASK: IN with its .data section's flags ORed with MASK.
data_flags() {
	python3 - "$@" <<'PY'
import struct, sys
image = bytearray(open(sys.argv[1], "rb").read())
pe = struct.unpack_from("<I", image, 0x3C)[0]
count, opt_size = struct.unpack_from("<H12xH", image, pe + 6)
table = pe + 24 + opt_size
for at in range(table, table + 40 * count, 40):
    if image[at:at + 8].rstrip(b"\0") == b".data":
        flags = struct.unpack_from("<I", image, at + 36)[0]
        struct.pack_into("<I", image, at + 36, flags | int(sys.argv[3], 0))
        open(sys.argv[2], "wb").write(image)
        sys.exit(0)
sys.exit("no .data section")
PY
}
if data_flags build/lockshimx64.efi "$tmp/wx-data.efi" 0x20000000 &&
	data_flags build/lockshimx64.efi "$tmp/code-data.efi" 0x20; then
	out=$(lib/efi/pe-nx-compat.py "$tmp/wx-data.efi" 2>&1)
	rc=$?
	(( rc == 1 )) && [[ $out == *"section .data is both writable and executable"* ]] &&
		ok "nx_compat_refuses_executable_data" ||
		not_ok "nx_compat_refuses_executable_data (exit $rc: $out)"
	out=$(lib/efi/pe-nx-compat.py "$tmp/code-data.efi" 2>&1)
	rc=$?
	(( rc == 0 )) && ok "nx_compat_accepts_writable_code_content" ||
		not_ok "nx_compat_accepts_writable_code_content (exit $rc: $out)"
else
	not_ok "nx_compat_section_flags (build/lockshimx64.efi: run make)"
fi
# nx_flag IMAGE: its DllCharacteristics' NX_COMPAT bit (0x100), 1 or 0.
nx_flag() {
	local v
	v=$(objdump -p "$1" 2>/dev/null | awk '$1 == "DllCharacteristics" { print $2 }')
	[[ -n $v ]] && echo $(( (16#$v >> 8) & 1 ))
}
[[ $(nx_flag "$tmp/l-release_link_accepts_clean_image/lockshimx64.efi") == 1 ]] &&
	ok "nx_compat_set_by_link" || not_ok "nx_compat_set_by_link"
for p in lockshimx64 mmx64; do
	if [[ $(nx_flag "build/$p.efi") == 1 ]]; then
		ok "nx_compat_$p"
	else
		not_ok "nx_compat_$p (build/$p.efi has no IMAGE_DLLCHARACTERISTICS_NX_COMPAT: run make)"
	fi
done
# ---- the firmware programs' link ------------------------------------------
# Both link with the project's linker script (lib/efi/elf_x86_64_efi.lds),
# not gnu-efi's: make -n's link commands, libcrypto.a taken as built.
lnk=$tmp/lnk
links=$(make -n BUILD="$lnk" -o "$lnk/crypto/libcrypto.a" "$lnk/lockshimx64.so" "$lnk/mmx64.so" 2>&1 |
	sed -e ':a' -e '/\\$/{N;s/\\\n//;ba}')
for p in lockshimx64 mmx64; do
	link=$(grep -e " -o $lnk/$p.so.tmp\$" <<<"$links")
	if [[ $link == *" -T lib/efi/elf_x86_64_efi.lds "* ]]; then
		ok "link_script_$p"
	else
		not_ok "link_script_$p (link command: ${link:-none})"
	fi
done
# The release build's images carry the guard and the protector's calls.
for p in lockshimx64 mmx64; do
	so=build/$p.so
	if [[ ! -f $so ]]; then
		not_ok "stack_guard_$p ($so missing: run make)"
	elif nm "$so" | grep -E ' [dDbB] __stack_chk_guard$' >/dev/null &&
		(($(objdump -d "$so" | grep -c 'call.*<__stack_chk_fail>') > 0)); then
		ok "stack_guard_$p"
	else
		not_ok "stack_guard_$p (no __stack_chk_guard, or no call to __stack_chk_fail, in $so)"
	fi
done
exit $failed
